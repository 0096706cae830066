import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { startPeriodic } from './periodic.ts';

describe('startPeriodic', () => {
  it('runs each job at start and then on its interval, logging a failure without stopping the others', async () => {
    const runs: string[] = [];
    const warnings: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push(line) });
    const stop = startPeriodic(
      [
        {
          name: 'failing',
          run: async () => {
            runs.push('failing');
            throw new Error('boom');
          },
        },
        { name: 'ok', run: async () => runs.push('ok') },
      ],
      40,
      logger,
    );
    await new Promise((resolve) => setTimeout(resolve, 110));
    await stop();
    const count = runs.length;
    expect(runs.slice(0, 4)).toEqual(['failing', 'ok', 'failing', 'ok']);
    expect(warnings.some((line) => line.includes('"job":"failing"'))).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(runs.length).toBe(count);
  });
});
