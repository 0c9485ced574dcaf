"""The Python worker runtime: processes that run user functions on Arrow record batches.

The engine starts ``python -m bowstring.worker --fork-server`` once per worker pool; the fork
server forks workers, which connect back to the engine and run the functions it sends. The
protocol between them is described in ``docs/worker-protocol.md``.

This package needs pyarrow, pandas, numpy and cloudpickle, but not the compiled engine.
"""
