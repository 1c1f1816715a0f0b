if (!process.env.TEST_DATABASE_URL?.startsWith('postgres')) {
  console.error('test:pg needs TEST_DATABASE_URL=postgres://user:password@host:port/database');
  process.exit(1);
}
