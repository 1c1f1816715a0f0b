import type { SingleBar } from 'cli-progress';

/** Progress of long work by table: a bar each on a terminal. */
export interface TableProgress {
  update(table: string, written: number, expected: number): void;
  /** a line above the bars */
  log(line: string): void;
  stop(): void;
}

/**
 * Bars on `stream` (cli-progress) when it is a terminal; null otherwise, where the work's plain log lines
 * suit a file or a pipe better than redrawn bars. cli-progress is loaded only to draw.
 */
export async function tableProgress(
  stream: NodeJS.WritableStream & { isTTY?: boolean },
): Promise<TableProgress | null> {
  if (!stream.isTTY) return null;
  const { default: cliProgress } = await import('cli-progress');
  const bars = new cliProgress.MultiBar(
    {
      stream,
      format: '{table} {bar} {percentage}% {value}/{total}',
      hideCursor: true,
      barsize: 25,
      clearOnComplete: false,
      formatValue: (value, _options, type) =>
        type === 'value' || type === 'total' ? value.toLocaleString('en') : String(value),
    },
    cliProgress.Presets.shades_classic,
  );
  const byTable = new Map<string, SingleBar>();
  return {
    update(table, written, expected) {
      let bar = byTable.get(table);
      if (!bar) {
        bar = bars.create(expected, 0, { table: table.padEnd(22) });
        byTable.set(table, bar);
      }
      bar.update(written);
    },
    log: (line) => bars.log(`${line}\n`),
    stop() {
      // lines logged since the last redraw are written by a redraw: one more, or stop would drop them
      bars.update();
      bars.stop();
    },
  };
}
