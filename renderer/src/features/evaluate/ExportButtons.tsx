import type { EvalReport } from '../../../../shared/eval';
import { downloadText } from '../../common/download';
import { reportFileName, reportToCsv, reportToJson } from './eval-export';

/** Saves the report as JSON (everything) or CSV (one row per configuration). */
export function ExportButtons({ report }: { report: EvalReport }) {
  return (
    <div className="row eval-export">
      <button type="button" className="button" data-testid="eval-export-json" onClick={() => downloadText(reportFileName(report, 'json'), reportToJson(report), 'application/json')}>
        Export JSON
      </button>
      <button type="button" className="button" data-testid="eval-export-csv" onClick={() => downloadText(reportFileName(report, 'csv'), reportToCsv(report), 'text/csv;charset=utf-8')}>
        Export CSV
      </button>
    </div>
  );
}
