import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { connectHost } from './host/trace-host';
import { HostProvider } from './host/host-context';
import './theme/theme.css';

// Picks the transport (Electron bridge or serve-mode HTTP) once; the app only sees TraceApi.
const host = connectHost();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <HostProvider host={host}>
      <App />
    </HostProvider>
  </StrictMode>,
);
