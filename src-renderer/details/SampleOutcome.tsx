import type { AttrValue } from '../../src-main/core/model/row';
import { STATUS_COLOURS } from '../timeline/span-colours';
import { rewardEntries } from './token-values';

/** A sample's status as a coloured pill (slime's status names), or a dash. */
export function SampleStatusValue({ status }: { status: AttrValue | undefined }) {
  if (typeof status !== 'string') return <>—</>;
  return (
    <span className="status-pill" style={{ background: STATUS_COLOURS[status] ?? '#8c959f' }}>
      {status}
    </span>
  );
}

/** A sample's reward: a number as it is, a dict reward as a table of its keys. */
export function SampleRewardValue({ reward }: { reward: AttrValue | undefined }) {
  const entries = rewardEntries(reward);
  if (entries === null) return <>—</>;
  if (entries.length === 1 && entries[0].key === '') return <>{entries[0].value}</>;
  return (
    <table className="reward-table">
      <tbody>
        {entries.map((r) => (
          <tr key={r.key}>
            <th>{r.key}</th>
            <td className="num">{r.value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
