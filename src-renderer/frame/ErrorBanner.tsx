import { useFilesStore } from '../state/files-store';

/** Files that could not be opened: name, reason and where; the rest of the app goes on. */
export function ErrorBanner() {
  const errors = useFilesStore((s) => s.errors);
  const dismiss = useFilesStore((s) => s.dismissError);
  if (errors.length === 0) return null;
  return (
    <div className="error-banners" role="alert">
      {errors.map((error, index) => (
        <div className="error-banner" data-testid="error-banner" key={index}>
          <strong>Could not open {error.fileName}:</strong> {error.message}{' '}
          <code className="error-code">{error.code}</code>
          <button
            type="button"
            className="button small"
            aria-label="Dismiss"
            onClick={() => dismiss(index)}
          >
            Dismiss
          </button>
        </div>
      ))}
    </div>
  );
}
