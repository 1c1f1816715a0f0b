import pino from 'pino';
const variants = {
  full: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["gateway-signature"]', '*.password', '*.refresh', '*.access'],
  nowild: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["gateway-signature"]', 'body.password', 'body.refresh', 'body.access'],
  wildonly: ['*.password', '*.refresh', '*.access'],
};
const paths = variants[process.argv[2]];
const dest = pino.destination({ dest: '/dev/null', sync: true });
const log = pino(paths ? { redact: { paths, censor: '[redacted]' } } : {}, dest);
const req = { method: 'GET', url: '/api/v1/equipment/items/bench-item-000001/', host: '127.0.0.1:4100', remoteAddress: '127.0.0.1', remotePort: 50000 };
let best = 1e9, bestc = 1e9;
for (let k = 0; k < 6; k++) { const n = 100000; let t = process.hrtime.bigint(); let tc = 0n;
  for (let i = 0; i < n; i++) { const t0 = process.hrtime.bigint(); const c = log.child({ reqId: 'e79f64a7-f3ff-42b0-905c-e2ec32faffae' }); tc += process.hrtime.bigint() - t0; c.info({ req, res: { statusCode: 200 }, responseTime: 1.23 }, 'request completed'); }
  best = Math.min(best, Number(process.hrtime.bigint() - t) / n / 1000); bestc = Math.min(bestc, Number(tc) / n / 1000); }
console.log(process.argv[2], 'us/line', best.toFixed(2), 'child', bestc.toFixed(2));
