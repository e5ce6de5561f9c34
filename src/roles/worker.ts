import { createOrm } from '../db/orm.js';
import { retryWhileUnavailable } from '../db/unavailable.js';
import { bindPubSub } from '../lib/pubsub.js';
import { startWorkers } from '../jobs/workers.js';
import { OutboxRelay } from '../jobs/outbox.js';
import type { RegisteredWorker } from '../jobs/job.js';
import type { AppServices } from '../core/services.js';
import { jobDefinitions } from '../modules/jobs.js';
import { moduleWorkers } from '../modules/workers.js';
import { engineWorkers } from '../engines/workers.js';
import { entities } from './tables.js';
import type { Role } from './role.js';

/** The handler of every job: the modules' own and the engines'. */
export const workers: readonly RegisteredWorker<AppServices>[] = [...moduleWorkers, ...engineWorkers];

/**
 * The worker role, on a pool of its own, so delivery bursts never take the API's connections. It
 * runs the job outbox's relay: jobs written by any process's statements (a send's delivery) reach
 * pg-boss wherever a worker runs, and those written while none ran move when one starts.
 */
export const workerRole: Role = {
  name: 'worker',
  async start({ services, dbUrl }) {
    const { config, log, boss } = services;
    const workerOrm = await createOrm(dbUrl, entities, config.WORKER_DB_POOL, (message) => log.debug({ orm: true }, message));
    // Its transactions send their after-commit notices (live activity) like the API's.
    bindPubSub(workerOrm.em, services.pubsub);
    const started = await startWorkers({ ...services, orm: workerOrm }, jobDefinitions, workers);
    const relay = await retryWhileUnavailable(config.DATABASE_WAIT_SECONDS, () =>
      OutboxRelay.start({
        url: dbUrl,
        boss,
        queues: jobDefinitions.map((j) => j.name),
        wake: (queues) => started.wake(queues),
        pollMs: config.JOB_OUTBOX_POLL_SECONDS * 1000,
        onError: (err) => log.error({ err }, 'job outbox relay'),
      }),
    );
    log.info('worker started');
    return {
      // Before pg-boss stops: a move under way finishes its batch with pg-boss's insert.
      stop: async () => {
        await relay.close();
        await started.stop();
      },
      release: () => workerOrm.close(),
    };
  },
};
