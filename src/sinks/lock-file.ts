/**
 * Node-only: an exclusive lock file for a store that one process at a time may write
 * (a PGlite data folder). The file holds the holder's pid; a lock whose process is gone
 * (killed, crashed) is taken over.
 * @module
 */
import { mkdir, open, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/** Whether process `pid` is alive (signal 0: EPERM means alive under another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid a lock file names, or undefined for a file being written or not a lock. */
async function holder(file: string): Promise<number | undefined> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const pid = Number.parseInt(text, 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** What {@link lockFolder} returns: the lock's file and how to let go of it. */
export interface FolderLock {
  readonly file: string;
  /** Deletes the lock file if this process still holds it. */
  release(): Promise<void>;
}

/**
 * Takes the lock `<folder>/<name>` (creating the folder when missing) by creating the
 * file exclusively (`O_CREAT | O_EXCL`) with this process's pid in it. A lock left by a
 * process that is no longer running is deleted and taken; one held by a live process
 * is refused. (Two processes taking over the same stale lock at the same microsecond
 * could both succeed; the file is re-read just before it is deleted to keep that window
 * that small.)
 * @returns the lock, or the pid of the live process holding it.
 * @throws the file system's error when the folder cannot be made or written, an Error
 *   when a stale lock cannot be deleted.
 */
export async function lockFolder(folder: string, name = 'chunkwise.lock'): Promise<FolderLock | { heldBy: number }> {
  await mkdir(folder, { recursive: true });
  const file = join(folder, name);
  for (let attempt = 0; attempt < 40; attempt++) {
    try {
      const handle = await open(file, 'wx');
      try {
        await handle.writeFile(`${process.pid}\n`);
      } finally {
        await handle.close();
      }
      return {
        file,
        release: async () => {
          if ((await holder(file)) === process.pid) await unlink(file).catch(() => {});
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const pid = await holder(file);
    if (pid === undefined) {
      // being written by its creator this instant, or not a pid at all: wait, then treat it as stale
      if (attempt < 20) {
        await new Promise((done) => setTimeout(done, 25));
        continue;
      }
    } else if (pid === process.pid || alive(pid)) {
      return { heldBy: pid };
    }
    if ((await holder(file)) === pid) await unlink(file).catch(() => {});
  }
  throw new Error(`cannot take the lock ${file}: it stays in place (no right to delete it?)`);
}

/**
 * Runs `work` holding the lock `<folder>/<name>`, waiting for it while another live
 * process holds it (polling every 10–50 ms, for up to `timeoutMs`, default 10 minutes):
 * the writes of several processes to one store then happen one after the other.
 * @throws an Error naming the holder when the wait times out; `work`'s own errors.
 */
export async function withFolderLock<T>(folder: string, name: string, work: () => Promise<T>, timeoutMs = 600_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const taken = await lockFolder(folder, name);
    if (!('heldBy' in taken)) {
      try {
        return await work();
      } finally {
        await taken.release();
      }
    }
    if (taken.heldBy === process.pid) return work(); // this process holds it already (a call inside another)
    if (Date.now() > until) throw new Error(`waited ${Math.round(timeoutMs / 1000)} s for process ${taken.heldBy} to finish writing`);
    await new Promise((done) => setTimeout(done, 10 + Math.random() * 40));
  }
}
