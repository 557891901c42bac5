"""What drives the bot in the tests and the benchmarks alike: the in-process table
(:mod:`testbed.harness`), a throwaway PostgreSQL server (:mod:`testbed.postgres_server`) and a
fast exchange against the local Discord (:mod:`testbed.exchange`)."""
