import type { Db } from './open';
import { stmt } from './statements';

/** After this many samples the ratio becomes a moving average, so it can follow a changed template. */
const WINDOW = 20;
/** Observations this far off are not calibration but something else (a cut prompt, a bug). */
const PLAUSIBLE = { min: 0.5, max: 2.0 };

export function calibrationRatio(db: Db, model: string, digest: string): { ratio: number; samples: number } {
  const row = stmt(db, 'SELECT ratio, samples FROM calibration WHERE model = ? AND digest = ?').get(model, digest) as { ratio: number; samples: number } | undefined;
  return row ?? { ratio: 1, samples: 0 };
}

/**
 * Folds one observation (Ollama's prompt_eval_count ÷ our raw estimate) into the model's ratio.
 * Returns false, recording nothing, for an implausible observation.
 */
export function recordCalibration(db: Db, model: string, digest: string, observed: number): boolean {
  if (!Number.isFinite(observed) || observed < PLAUSIBLE.min || observed > PLAUSIBLE.max) return false;
  const { ratio, samples } = calibrationRatio(db, model, digest);
  const n = Math.min(samples, WINDOW - 1);
  const next = samples === 0 ? observed : (ratio * n + observed) / (n + 1);
  stmt(
    db,
    `INSERT INTO calibration (model, digest, ratio, samples, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT(model, digest) DO UPDATE SET ratio = excluded.ratio, samples = excluded.samples, updated_at = excluded.updated_at`,
  ).run(model, digest, next, samples + 1, new Date().toISOString());
  return true;
}
