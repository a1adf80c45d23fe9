import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '../App';
import { HostProvider } from '../host/host-context';
import type { TraceHost } from '../host/trace-host';
import { readSnapshot } from './read-snapshot';
import { snapshotApi } from './snapshot-api';
import { ReportHeader } from './ReportHeader';
import '../theme/theme.css';

// The report page's entry (vite.report.config.ts): the app itself, its host answering from the
// snapshot the HTML carries instead of a service; nothing here draws a view of its own.
const root = createRoot(document.getElementById('root')!);
readSnapshot(document).then(({ snapshot, details }) => {
  let refusals = 0;
  const host: TraceHost = {
    kind: 'report',
    // the page offers no control a snapshot cannot answer: a refusal is counted where tests
    // (and a curious user's devtools) can see it
    api: snapshotApi(snapshot, details, () => {
      document.body.dataset.reportRefusals = String(++refusals);
    }),
    contentLeftOut: !snapshot.withContent,
    holdsCompare: snapshot.compare !== undefined,
    pathForFile: () => null,
    uploader: null,
    onEventsConnected: () => () => {},
  };
  document.body.dataset.report = snapshot.compare ? 'compare' : 'file';
  root.render(
    <StrictMode>
      <HostProvider host={host}>
        <div className="report-page">
          <ReportHeader snapshot={snapshot} />
          <App />
        </div>
      </HostProvider>
    </StrictMode>,
  );
}, showError);

function showError(error: unknown) {
  document.body.dataset.reportError = 'true';
  root.render(<pre className="report-error">{String(error)}</pre>);
}
