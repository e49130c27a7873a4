-- Request budgets shared by every server process: one row per key (a credential, or an IP for
-- anonymous traffic), counting requests since the window opened.
CREATE TABLE rate_limits (
  key text PRIMARY KEY,
  window_started_at timestamptz NOT NULL,
  count integer NOT NULL
);
CREATE INDEX rate_limits_started ON rate_limits (window_started_at);
