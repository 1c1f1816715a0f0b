import { procStatusKb } from './server-process.ts';

// The click export's memory at scale (decisions §17): one download of a vendor's clicks as CSV, read as
// fast as the client can, while the server's resident memory is sampled. Streaming in chunks keeps the
// server's memory flat whatever the number of rows; a growth of the size of the file would mean the rows
// are gathered before they are sent.

export interface ExportMeasurement {
  rows: number;
  megabytes: number;
  seconds: number;
  rssBeforeMb: number;
  rssPeakMb: number;
}

export async function measureExport(
  base: string,
  token: string,
  pid: number,
  path: string,
): Promise<ExportMeasurement> {
  const rssMb = () => (procStatusKb(pid, 'VmRSS') ?? 0) / 1024;
  const rssBeforeMb = rssMb();
  let rssPeakMb = rssBeforeMb;
  const sampler = setInterval(() => {
    rssPeakMb = Math.max(rssPeakMb, rssMb());
  }, 50);
  const started = performance.now();
  try {
    const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
    if (res.status !== 200 || !res.body) throw new Error(`export: ${res.status} ${await res.text()}`);
    let bytes = 0;
    let newlines = 0;
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 10) newlines++;
    }
    return {
      // the header's line is not a row; a value with a line break inside would add one (the bench has none)
      rows: newlines - 1,
      megabytes: bytes / 1024 / 1024,
      seconds: (performance.now() - started) / 1000,
      rssBeforeMb,
      rssPeakMb,
    };
  } finally {
    clearInterval(sampler);
  }
}
