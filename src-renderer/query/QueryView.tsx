import type { FileViewProps } from '../views/view-types';
import { QueryPanel } from './QueryPanel';

/** The Query tab of one file: SQL over its tables, its result's picture named after the file. */
export function QueryView({ file }: FileViewProps) {
  return <QueryPanel fileIds={[file.fileId]} picture={`${file.name}-query`} />;
}
