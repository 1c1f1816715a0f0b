console.log('benchmark: not built yet (see the benchmark issue)');
