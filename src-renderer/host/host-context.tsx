import { createContext, useContext, useEffect, useMemo, useRef, type ReactNode } from 'react';
import type { MenuCommand } from '../../src-main/core/api/trace-api';
import type { TraceHost } from './trace-host';

interface HostContextValue {
  host: TraceHost;
  /** menu and keyboard commands the frame hands down to the views that carry them out */
  commands: Set<(command: MenuCommand) => void>;
}

const HostContext = createContext<HostContextValue | null>(null);

/** Gives every component below it the host (the TraceApi client): no host prop drilling. */
export function HostProvider({ host, children }: { host: TraceHost; children: ReactNode }) {
  const value = useMemo(() => ({ host, commands: new Set<(c: MenuCommand) => void>() }), [host]);
  return <HostContext.Provider value={value}>{children}</HostContext.Provider>;
}

function useHostContext(): HostContextValue {
  const value = useContext(HostContext);
  if (!value) throw new Error('useHost: no HostProvider above this component');
  return value;
}

/** The host this renderer runs in (Electron bridge or serve-mode HTTP). */
export function useHost(): TraceHost {
  return useHostContext().host;
}

/** Hands a command to every view listening with useCommand (zoom, panels, compare, ...). */
export function useDispatchCommand(): (command: MenuCommand) => void {
  const { commands } = useHostContext();
  return useMemo(
    () => (command: MenuCommand) => {
      for (const listener of commands) listener(command);
    },
    [commands],
  );
}

/** Runs `listener` for each command dispatched while the calling component is mounted. */
export function useCommand(listener: (command: MenuCommand) => void): void {
  const { commands } = useHostContext();
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => {
    const call = (command: MenuCommand) => latest.current(command);
    commands.add(call);
    return () => {
      commands.delete(call);
    };
  }, [commands]);
}
