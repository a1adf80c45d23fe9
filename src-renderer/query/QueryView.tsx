import type { FileViewProps } from '../views/view-types';
import { QueryPanel } from './QueryPanel';

/** The Query tab of one file: SQL over its tables. */
export function QueryView({ file }: FileViewProps) {
  return <QueryPanel fileIds={[file.fileId]} />;
}
