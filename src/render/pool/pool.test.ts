/**
 * The worker pool for real (piscina threads running the .ts worker through tsx): renders match
 * in-process output, a full queue answers PoolOverloaded at once, and a render past its deadline
 * fails alone with RENDER_FAILED while renders beside it complete and the pool keeps serving.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PoolOverloaded, RenderError } from '../errors.ts';
import { jobFor, pageDocument } from '../goldens/harness.ts';
import { renderInProcess } from '../render.ts';
import type { RenderJob } from '../types.ts';
import { RenderPool } from './pool.ts';

let server: Server;
let hangUrl = '';

beforeAll(async () => {
  server = createServer(() => {
    // Never answers: a render waiting on this image runs until the pool's deadline.
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  hangUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow.png`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const quickJob = (): RenderJob =>
  jobFor(
    pageDocument({
      width: 200,
      height: 120,
      background: '#0f172a',
      elements: [
        {
          id: 't',
          type: 'text',
          x: 10,
          y: 10,
          width: 180,
          height: 100,
          text: 'Pooled',
          color: '#ffffff',
          fontSize: 40,
        },
      ],
    }),
  );

const hangingJob = (): RenderJob =>
  jobFor(
    pageDocument({
      width: 50,
      height: 50,
      elements: [{ id: 'slow', type: 'image', x: 0, y: 0, width: 50, height: 50, src: hangUrl }],
    }),
    'png',
    {
      allowPrivateUrls: true,
    },
  );

describe('RenderPool', () => {
  it('renders in a worker exactly as in process', async () => {
    const pool = new RenderPool({ workers: 1 });
    try {
      const [pooled] = await pool.render(quickJob());
      const [local] = await renderInProcess(quickJob());
      expect(pooled?.width).toBe(200);
      expect(Buffer.from(pooled?.bytes ?? [])).toEqual(Buffer.from(local?.bytes ?? []));
      expect(pool.stats()).toMatchObject({ workers: 1, completed: 1, failed: 0 });
    } finally {
      await pool.close();
    }
  });

  it('answers PoolOverloaded when the queue is full', async () => {
    const pool = new RenderPool({ workers: 1, maxQueue: 2, timeoutMs: 400 });
    try {
      await pool.warmup();
      const outcomes = await Promise.allSettled(Array.from({ length: 6 }, () => pool.render(hangingJob())));
      const overloaded = outcomes.filter(
        (o) => o.status === 'rejected' && o.reason instanceof PoolOverloaded,
      );
      expect(overloaded.length).toBeGreaterThanOrEqual(3);
      const first = overloaded[0];
      if (first?.status === 'rejected')
        expect(first.reason).toMatchObject({ code: 'OVERLOADED', status: 503 });
      expect(pool.stats().overloaded).toBe(overloaded.length);
    } finally {
      await pool.close();
    }
  });

  it('stops a render past its deadline without touching the others', async () => {
    const pool = new RenderPool({ workers: 2, timeoutMs: 1000 });
    try {
      await pool.warmup();
      const [slow, quick] = await Promise.allSettled([pool.render(hangingJob()), pool.render(quickJob())]);
      expect(quick.status).toBe('fulfilled');
      expect(slow.status).toBe('rejected');
      if (slow.status === 'rejected') {
        expect(slow.reason).toBeInstanceOf(RenderError);
        expect(slow.reason).toMatchObject({ code: 'RENDER_FAILED', details: { reason: 'timeout' } });
      }
      const [after] = await pool.render(quickJob());
      expect(after?.height).toBe(120);
      expect(pool.stats()).toMatchObject({ timedOut: 1, running: 0 });
    } finally {
      await pool.close();
    }
  });

  it('carries a RenderError from the worker with its details', async () => {
    const pool = new RenderPool({ workers: 1 });
    try {
      const error = await pool.render({ ...quickJob(), pageIds: ['missing'] }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RenderError);
      expect(error).toMatchObject({ details: { pageId: 'missing', reason: 'unknown page' } });
    } finally {
      await pool.close();
    }
  });
});
