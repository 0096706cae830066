// Minimal typing of the parts of autocannon the API benchmark uses.
declare module 'autocannon' {
  interface Client {
    setBody(body: string): void;
  }
  interface RequestParams {
    method?: string;
    path?: string;
    body?: string;
    headers?: Record<string, string>;
  }
  interface Options {
    url: string;
    method?: string;
    connections?: number;
    duration?: number;
    /** A number of requests to make instead of a duration. */
    amount?: number;
    body?: string;
    headers?: Record<string, string>;
    setupClient?: (client: Client) => void;
    requests?: Array<{ setupRequest?: (request: RequestParams) => RequestParams }>;
  }
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    errors: number;
    non2xx: number;
  }
  export default function autocannon(options: Options): Promise<Result>;
}
