export const MAIN_HELP = `Trace Explorer: where a rollout's time went, from slime dumps and OpenTelemetry traces.

Usage: trace-explorer <command> [options] FILE...

Commands:
  serve FILE... [--root DIR] [--port N] [--compare]
                                         the explorer UI in a browser, on 127.0.0.1 only
  summary FILE [--json] [--timings]      format, samples, rows, spans, duration, perf table
                                         (a folder: each trace it holds, and what it skipped)
  rows FILE                              rows as JSON, in slime's timeline cache shape
  perf FILE                              slime's perf/... metrics (and ours) as JSON; figures
                                         per span name for traces without them
  export FILE --format perfetto|csv [-o OUT]   Perfetto trace (.json or .json.gz) or CSV
  summary RUN [--json]                   a run (a folder or several files): each file, the
                                         joins sample <-> SGLang request, staleness, trainer
  export RUN --format perfetto [-o OUT]  the whole run as one trace, flows sample -> server
  compare A B [--json]                   why B took longer or shorter than A, figures with
                                         units, what kept each rollout open; two run folders:
                                         each rollout pair with the runs' figures
  sql FILE|FOLDER... -e SQL | -f FILE [--format table|csv|json]
                                         SQL over the traces' tables (docs/sql.md), DuckDB
  export FILE|FOLDER... --format parquet -o DIR   one Parquet file per table, same schema
  report FILE|FOLDER [B] [-o OUT] [--with-content]
                                         one HTML file to share: the app, frozen, offline
  report FILE|RUN --png OUT.png [--window START-END]
                                         a picture of the timeline, as the app draws it

  trace-explorer FILE...                 same as serve
  trace-explorer A B --compare           serve, comparing A with B

FILE is a slime rollout dump (.pt), an OpenTelemetry JSON-lines file (SGLang's otel_trace.json,
ROLL's traces.jsonl), slime's trainer communication timeline (slime-trainer-0.jsonl), or a folder: it opens every trace it holds, recognised by content (a
rotated traces*.jsonl set as one), and lists the files it skipped with the reason.
Commands that run longer than about 2 s show their progress on stderr when it is a terminal.
Run 'trace-explorer <command> --help' for a command's options.`;

export const COMMAND_HELP: Record<string, string> = {
  report: `Usage: trace-explorer report FILE|FOLDER [B] [-o OUT] [--with-content]
       trace-explorer report FILE|RUN --png OUT.png [--window START-END]

Writes one HTML file that anyone opens by double-click, offline: no server, no network, nothing
beside it. It is the explorer itself with this file's data inside (compressed): the header
(files, formats, sizes, the window the figures use), the answer (two files: why B took longer
or shorter than A, as compare says it; a rollout: its wall time, what kept it open, the
stragglers, the groups), the timeline (zoom, pan, hover, details), the perf table and
histograms, and for two files the compare figures. A folder: each trace it holds, as tabs.
  -o OUT           the file to write (default report.html)
  --with-content   include prompts, responses, labels and tool arguments; without it they
                   are left out, and the report says so
  --png OUT.png    instead of the page, a picture of the timeline as the app draws it (2x
                   pixels, light theme, rows in file order); a run folder: the run tab's
                   (trainer ranks, samples by start, GPU ranks, rollout bands)
  --window S-E     the picture's time window, seconds from the file's (a run's) start
                   (default: all)
Searching, SQL, token values and opening other files are not part of a report.`,
  sql: `Usage: trace-explorer sql FILE|FOLDER... -e "SELECT ..." | -f query.sql [--format F]

Runs one SQL query (DuckDB's dialect) over the tables of every trace named (a folder: every
trace it holds, found by content, files numbered in path order): files, samples, spans, events,
pd_phases, server_requests, trainer, perf (docs/sql.md: every column and its unit). Times are
seconds from the earliest file's start (start_sec) and as the files say them (start_epoch).
The engine reads no file and writes none: only the named traces' tables are there.
  -e SQL           the query
  -f FILE          the query, read from FILE
  --format table   an aligned table (default; control characters shown escaped)
  --format csv     CSV with a header (cells starting with = + - @ get a leading ')
  --format json    one JSON object per row, one per line`,
  serve: `Usage: trace-explorer serve FILE... [--root DIR] [--port N] [--compare]

Serves the explorer on http://127.0.0.1:PORT with a random token in the printed URL, so other
users of this machine cannot read the files. Open the URL in a browser (over an SSH tunnel for
a remote machine: ssh -L PORT:127.0.0.1:PORT host).
  --port N     listen on port N (default: a free port)
  --compare    open two files, A and B, side by side
  --root DIR   also let the page open files under DIR by path (repeatable)
By path, the page opens only the named files (with their rotated sets), files under named
folders and --root folders; any other path answers "no such file". Dropped files upload as
raw bytes (up to 256 MiB, one at a time).
Files that cannot be opened are said in the terminal, with the reason.`,
  summary: `Usage: trace-explorer summary FILE [--json] [--timings]

Prints the file's format, samples, traced samples, rows, spans, events, duration and the perf
table. --json prints one JSON object with format, samples, untracedSamples, rows, spans, events,
links, skippedLines, durationSec, perf, and (ours) rollout: the window the figures use
(this rollout's own, earlier attempts of resumed samples left out), resumed samples with their
earlier rollout ids and idle seconds, what kept the rollout open, the straggler attribution and
one line per GRPO group. --timings also prints to stderr how long each step
of opening took (read, rows, store, perf) and the reading speed.

A run (several files, or a folder, with its subfolders, holding a trainer timeline or traces of
several kinds): --json prints files (each with path, format and counts), skipped, joins
(samples, samplesWithServerRequests, samplesWithoutServerRequest, serverRequests,
serverRequestsWithoutSample, staleSamples), trainer (files, records, skippedLines,
byOperation), the unjoined lists both ways, the stale samples, rollouts and weight syncs.`,
  rows: `Usage: trace-explorer rows FILE

Prints the rows of a slime dump as JSON in exactly the shape of slime's timeline cache
(cache_version, pt_path, generated_at, sample_count, global_start, global_end, rows[]); any
other trace's rows in the same envelope, with their fields. Streamed: any size prints.`,
  perf: `Usage: trace-explorer perf FILE

Prints the perf summary as one JSON object of perf/... keys: slime's own keys, plus request
counts and the PD phase keys of current dumps (ours). A trace without slime's request timings
(OpenTelemetry) gets span/<name>/{count,total,mean,median,max,min} in seconds instead, names
with ids replaced by * (decode Req *).`,
  compare: `Usage: trace-explorer compare A B [--json]

Prints, first, why B took longer or shorter than A in plain sentences (idle time between the
attempts of samples resumed from an earlier rollout, what kept each rollout open in its own
window, B's stragglers; the rows behind each figure in brackets), then every figure with its
unit and change, biggest |Δ%| first, marked * when beyond noise, then the wall-time breakdown.
Samples match by index when A and B hold the same prompts, else by group and prompt.
--json prints all of it as one JSON object.

A and B may be two run folders: each is opened and joined as summary RUN does, their rollout
dumps pair by rollout id (in order when they share none), and each pair is compared with what
the run's train dumps and request metrics say (decode per token, retractions, prefix cache,
log-prob mismatch, staleness), as the app's compare says it of two dumps of open runs. Two
dumps that sit in such run folders (runA/rollout_0.pt runB/rollout_0.pt) compare as that pair.`,
  export: `Usage: trace-explorer export FILE --format perfetto|csv [-o OUT]
       trace-explorer export FILE|FOLDER... --format parquet -o DIR

  --format parquet    one Parquet file per table of docs/sql.md (DIR/spans.parquet, ...),
                      the schema the sql command queries

  --format perfetto   Trace Event Format JSON for ui.perfetto.dev and chrome://tracing
                      (OUT ending in .gz is gzipped)
  --format csv        one line per row with its fields, after a header
  -o OUT              output file; '-' (the default) writes to stdout
A run (a folder or several files) exports as one Perfetto trace on one clock, with a flow
arrow from each sample's generate span to its SGLang request.`,
};
