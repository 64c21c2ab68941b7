"""The runtime: how a validation runs (as coroutines, on an event loop, within one deadline),
and the credentials no text of the package may show.

The validation is written once, as coroutines (``ProvenanceLLM.acheck``). An awaited caller
(``AsyncGuard``) runs it on its own loop; a synchronous caller (``validate``, ``check``, a
``Guard`` from many threads, the CLI, the evaluation engines, Ray actors) hands it to the
process's validation loop (``run``), one thread the process keeps, and waits for the result.
docs/design/one-path.md says why this and not ``asyncio.run`` per call.

``Runner.validation()`` scopes one validation: its deadline, the tasks it starts (cancelled
when it ends) and the native work it handed to the pool (waited for before it returns, up to
``ABANDON_AFTER`` seconds past the deadline: what still runs then, such as an index build, is
abandoned, and fills the index cache for the next validation when it ends). ``Scope.map`` runs a
coroutine function over items, at most ``max_concurrency`` at once; what is not done by the
deadline is cancelled (its slots freed) and gets the caller's ``late`` value: "too late" is
that one outcome, ``TOO_LATE`` its one wording.

Blocking work (an embedding, the rules, a user's plain callable) crosses into the loop at one
boundary, ``offload``: the process's bounded pool.

Its modules, each by what it does: ``deadline`` (a validation's scope and deadline), ``pool``
(the blocking work's boundary), ``loop`` (the process's validation loop), ``waiting`` (calls
that only wait on a user's code), ``credentials`` (given to a judge, written nowhere else).
"""
