/** Queries a user can start from (docs/sql.md has more, with their answers). */
export const EXAMPLE_QUERIES: { label: string; sql: string }[] = [
  {
    label: 'Samples by status',
    sql: `SELECT status, count(*) AS samples, round(avg(reward), 3) AS mean_reward,
       round(median(duration_sec), 2) AS median_sec
FROM samples
GROUP BY status
ORDER BY samples DESC`,
  },
  {
    label: 'Slowest samples',
    sql: `SELECT file, row, group_index, status, reward, response_length, duration_sec
FROM samples
ORDER BY duration_sec DESC
LIMIT 100`,
  },
  {
    label: 'Time per span name',
    sql: `SELECT name, count(*) AS spans, round(sum(duration_sec), 2) AS total_sec,
       round(median(duration_sec) * 1000, 1) AS median_ms
FROM spans
GROUP BY name
ORDER BY total_sec DESC`,
  },
  {
    label: 'Groups: slowest vs median',
    sql: `SELECT m.group_index, count(*) AS samples,
       round(max(s.duration_sec), 2) AS slowest_sec,
       round(median(s.duration_sec), 2) AS median_sec,
       round(max(s.duration_sec) / median(s.duration_sec), 1) AS slowest_over_median
FROM spans s JOIN samples m USING (file, row)
WHERE s.name = 'generate_and_rm'
GROUP BY m.group_index
ORDER BY slowest_over_median DESC`,
  },
  {
    label: 'Reward 0 with many tool calls',
    sql: `WITH tools AS (
  SELECT file, row, count(*) AS tool_calls FROM spans WHERE name = 'tool_call' GROUP BY ALL
)
SELECT s.file, s.row, t.tool_calls, s.reward, s.response_length, s.duration_sec
FROM samples s JOIN tools t USING (file, row)
WHERE t.tool_calls >= 3 AND s.reward = 0`,
  },
];
