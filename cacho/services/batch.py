"""One batch of events on its way to the log: the events of one command (or one timeout,
or a new match), decided by the engine, with the dice they need rolled from the fairness
seeds, and the match's head and state as they leave it.

Dice. The engine asks for dice (`DiceNeeded`); they come from the seed of their scope (a
bidding round, an Alalay turn): a new seed is drawn when a scope starts (the event
carries its commitment), further dice continue the committed seed's stream, and the event
that closes a scope carries the seed itself (`reveal`). After every batch the engine is
asked whether a round waits for dice (`settle`), and that round starts in the same batch.

`commit` hands the events, the head and the seed rows to the store in one append, and
what follows the commit to services.after_commit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

from cacho import fairness
from cacho.engine.errors import RuleError
from cacho.engine.games import DiceNeeded, Game
from cacho.eventlog import store
from cacho.eventlog.rows import NO_SEEDS, AppendedEvent, NewEvent, Seed, SeedWrites
from cacho.eventlog.store import Head
from cacho.models import Match
from cacho.process.lru import LRU
from cacho.services import after_commit

SERVER = "server"  # the actor of what the server does by itself (round starts, timeouts)

# The secrets of the seeds this process stored, by (match, scope): a round's reveal, most
# often written by the process that started the round, then needs no read. A secret is
# kept only once its append committed (a seed never changes once stored).
SEED_SECRETS: LRU[tuple[str, str], tuple[str, str]] = LRU(4096)


class Batch:
    __slots__ = (
        "actor",
        "at",
        "command_id",
        "command_key",
        "game",
        "head",
        "note",
        "pending",
        "refinish",
        "reveals",
        "seeds",
        "state",
    )

    def __init__(
        self,
        head: Head,
        game: Game,
        state: Any,
        at: int,
        actor: str,
        command_id: str | None = None,
        note: dict[str, Any] | None = None,
    ) -> None:
        """`head` is the batch's own (a copy): it moves with the events and is saved with them.
        `note`: metadata every event of the batch carries besides the usual (a ruling's reason)."""
        self.head, self.game, self.state, self.at = head, game, state, at
        self.actor, self.command_id, self.note = actor, command_id, note
        # A referee's ruling that may change the results of a match that is over already:
        # the finished listeners hear of it again (services.finished).
        self.refinish = False
        # Who sent the command and what it said (`matches.command_key`), kept on the event
        # that carries the command id: a reuse of the id by another seat, or with another
        # payload, is told from a repeat.
        self.command_key: str | None = None
        self.pending: list[NewEvent] = []
        self.seeds: dict[str, Seed] = {}  # the scopes this batch drew dice from
        self.reveals: list[tuple[str, NewEvent]] = []  # (scope, the event that reveals it)

    def run(self, step: Any, actor: str | None = None) -> None:
        """Decide a command (or a DiceNeeded, rolled here) and add its events."""
        dice_meta: dict[str, Any] | None = None
        if isinstance(step, DiceNeeded):
            step, dice_meta = self._roll(step)
        self.add(self.game.decide(self.state, step), actor or self.actor, dice_meta)

    def add(
        self,
        events: Sequence[Any],
        actor: str,
        dice_meta: dict[str, Any] | None = None,
        *,
        opening: bool = False,
    ) -> None:
        """Evolve the state by `events` (except an `opening` event: it made the state) and queue them."""
        batch: list[NewEvent] = []
        for event in events:
            if not opening:
                self.state = self.game.evolve(self.state, event)
            payload = self.game.event_to_dict(event)
            kind = payload.pop("type")
            metadata: dict[str, Any] = {"actor": actor, "at": self.at}
            if self.note:
                metadata.update(self.note)
            if self.command_id is not None:
                metadata["causation"] = self.command_id
            if dice_meta is not None and self.game.event_dice(event, self.state) is not None:
                metadata["dice"] = dice_meta
            # The client's command id marks the first event it caused (unique per stream).
            first = not self.pending and not batch and actor != SERVER
            if first and self.command_key is not None and self.command_id is not None:
                metadata["command"] = self.command_key
            batch.append(NewEvent(kind, payload, metadata, self.command_id if first else None))
        if batch:
            self._reveal(batch[-1])
        self.pending += batch

    def settle(self) -> None:
        """Roll and start whatever the engine waits for (a bidding round's dice)."""
        while (need := self.game.dice_needed(self.state, self.at)) is not None:
            self.run(need, SERVER)

    def commit(self) -> list[AppendedEvent]:
        """Append the batch (its own transaction, or the caller's); what follows the commit
        runs after it."""
        finished = self._close()
        rows = store.append(self.head, self.pending, self.at, self._seed_writes())
        self._after_commit(rows, finished)
        return rows

    def create(self, match: Match, seats: Sequence[str]) -> list[AppendedEvent]:
        """Store `match` (a new row) with its seats and the batch as its first events."""
        finished = self._close()
        rows = store.create(match, self.head, seats, self.pending, self.at, self._seed_writes())
        self._after_commit(rows, finished)
        return rows

    # ---------------------------------------------------------------- dice

    def _roll(self, need: DiceNeeded) -> tuple[Any, dict[str, Any]]:
        """Dice from the scope's seed: a new one (drawn here, stored with the append), or
        the next dice of the committed one."""
        if self.game.is_physical(self.state):
            raise RuleError("dice-entered-at-table", "at a physical table the scorekeeper enters the dice")
        scope = need.scope or self.game.dice_scope(self.state)
        if scope is None:
            raise RuleError("no-turn-in-progress", "nobody is on turn")
        seed = self.seeds.get(scope)
        if seed is None and self.head.pending_scope == scope:
            # Read outside any lock: if the stream moves meanwhile, the append fails on its
            # version and this count is never written.
            seed = store.read_seed(self.head.id, scope)
        if seed is None:
            value = fairness.new_seed()
            seed = Seed(scope, value, fairness.commitment(value), new=True)
            self.head.pending_scope = scope
        offset = seed.drawn
        seed.drawn += need.count
        self.seeds[scope] = seed
        dice = fairness.roll(seed.seed, need.count, offset)
        meta = {"scope": scope, "commitment": seed.commitment, "offset": offset, "count": need.count}
        return need.build(dice), meta

    def _reveal(self, last: NewEvent) -> None:
        """A scope that the state has left is revealed by the batch's event that left it
        (its metadata takes the seed when the batch is written: `_seed_writes`)."""
        scope = self.head.pending_scope
        if not scope or scope == self.game.dice_scope(self.state):
            return
        self.reveals.append((scope, last))
        self.head.pending_scope = ""

    def _seed_writes(self) -> SeedWrites:
        """The seed rows the append writes; each revealed seed put in the metadata of the
        event that reveals it (it is hashed with it): in hand, kept by this process, or read."""
        if not self.seeds and not self.reveals:  # most commands: no round starts or ends
            return NO_SEEDS
        revealed = {scope for scope, _ in self.reveals}
        others = [scope for scope in revealed if scope not in self.seeds]
        secrets = {scope: SEED_SECRETS.get((self.head.key, scope)) for scope in others}
        unknown = [scope for scope, secret in secrets.items() if secret is None]
        if unknown:
            secrets.update(store.seed_secrets(self.head.id, unknown))
        for scope, event in self.reveals:
            seed = self.seeds.get(scope)
            pair = (seed.seed, seed.commitment) if seed is not None else secrets[scope]
            assert pair is not None, f"no seed {scope} for match {self.head.key}"
            event.metadata["reveal"] = {"scope": scope, "seed": pair[0], "commitment": pair[1]}
        for seed in self.seeds.values():
            seed.revealed = seed.scope in revealed
        return SeedWrites(list(self.seeds.values()), others)

    # ---------------------------------------------------------------- the head

    def _close(self) -> bool:
        """Move the head to the turn the batch leaves (its key and deadline, written in the
        last event too, with who is to act) and to the match's end, or back to live play
        (a reopen). True: the batch ended the match (again, for a ruling that changes
        the results of a finished one)."""
        head, game, state = self.head, self.game, self.state
        key = game.turn_key(state) or ""
        if key != head.turn_key:
            deadline = game.deadline(state, self.at, head.turn_seconds)
            if self.pending and deadline is not None:
                self.pending[-1].metadata["deadline"] = deadline
        else:
            deadline = game.deadline(state, None, head.turn_seconds) or head.deadline_ms
        if self.pending:
            # Public: lets every client (and bot) know whose turn it is without a state.
            self.pending[-1].metadata["to_act"] = game.to_act(state)
        head.turn_key = key
        head.deadline_ms = deadline if key else None
        over = game.is_over(state)
        finished = over and (head.status != Match.STATUS_FINISHED or self.refinish)
        if finished:
            head.status = Match.STATUS_FINISHED
            head.finished_at = timezone.now()
        elif not over and head.status == Match.STATUS_FINISHED:  # a referee reopened it
            head.status = Match.STATUS_LIVE
            head.finished_at = None
        return finished

    def _after_commit(self, rows: list[AppendedEvent], finished: bool) -> None:
        """After the commit (at once outside a transaction): the new seeds' secrets kept,
        and the rest (services.after_commit). The head is the cache's from then on."""
        new = [(seed.scope, seed.seed, seed.commitment) for seed in self.seeds.values() if seed.new]
        done = after_commit.Committed(self.head, self.state, self.game, rows, finished)
        key = self.head.key

        def committed() -> None:
            for scope, secret, commitment in new:
                SEED_SECRETS.put((key, scope), (secret, commitment))
            after_commit.run(done)

        transaction.on_commit(committed)
