-- A push while a sync runs must leave a follow-up job: one running and one queued job per space
-- (before, one pending job of either state, so a push during a sync queued nothing).
DROP INDEX sync_jobs_pending;
CREATE UNIQUE INDEX sync_jobs_queued ON sync_jobs (wiki_id) WHERE state = 'queued';
CREATE UNIQUE INDEX sync_jobs_running ON sync_jobs (wiki_id) WHERE state = 'running';
