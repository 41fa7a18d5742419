/**
 * `waitForJobs` against a model of Redis in which time moves one step per command: a job
 * completes at a given step, and what a command reads is the state at its step. A job
 * that completes between two reads of one poll must still be counted with its documents
 * (`embed --wait` said "40 of 40 job(s) completed, 38 document(s)").
 */
import { describe, expect, it, vi } from 'vitest';

/** The model's clock: one step per command. */
const clock = { now: 0 };
/** Job id → the step at which it completes. */
const completesAt = new Map<string, number>();

vi.mock('bullmq', () => {
  const done = (id: string) => clock.now >= (completesAt.get(id) ?? Infinity);
  class Queue {
    on() {}
    async waitUntilReady() {}
    async close() {}
    async getJobState(id: string) {
      clock.now++;
      return done(id) ? 'completed' : 'active';
    }
    async getJob(id: string) {
      clock.now++;
      const finished = done(id);
      return {
        id,
        data: { documents: [{ path: `/docs/${id}.txt` }], options: {} },
        returnvalue: finished ? { documents: 1, chunks: 3 } : null,
        getState: async () => {
          clock.now++;
          return done(id) ? 'completed' : 'active';
        },
      };
    }
  }
  return { Queue, Worker: class {}, UnrecoverableError: class extends Error {} };
});

const { waitForJobs } = await import('../src/apps/queue/queue.js');

describe('waitForJobs counts the documents of every completed job', () => {
  it('three jobs that complete between the reads of a poll: 3 completed, 3 documents, 9 chunks', async () => {
    clock.now = 0;
    // each job completes on the second command that concerns it in the first poll
    for (const [id, at] of [['1', 2], ['2', 4], ['3', 6]] as const) completesAt.set(id, at);
    const result = await waitForJobs({ url: 'redis://127.0.0.1:1/0' }, ['1', '2', '3']);
    expect(result).toEqual({ documents: 3, chunks: 9, completed: 3, failed: [] });
  });
});
