"""Independent references for the solver: a plain minimax over explicit game graphs.

Built only from the plain-Python engine (``samarra.engine``): positions are engine
positions (revealed flags kept, ``actions_played`` capped at 1), edges come from
``legal_actions`` and ``apply_action``. Cycles are handled by computing the values
layer by layer: a position is decided at layer ``k`` when one of its actions wins
with a child decided at layer ``k - 1`` (fastest win) or all of its actions lose with
children decided by layer ``k - 1`` (slowest loss); what is never decided is a draw.
"""

from dataclasses import replace

from samarra.engine import apply_action, legal_actions


def _norm(p):
    # only "is this the opening single action" matters to the rules (the pass rule)
    return replace(p, actions_played=min(p.actions_played, 1))


def explicit_graph(starts, limit=400_000):
    """Every position reachable from ``starts``; edges as (kind, child-or-None) per action.

    ``kind`` is +1 (the action wins at once), -1 (it loses at once) or 0 and then the
    child is given, with ``same`` telling whether the child's mover is the parent's.
    """
    todo = [_norm(p) for p in starts]
    graph = {}
    while todo:
        p = todo.pop()
        if p in graph:
            continue
        edges = []
        for a in legal_actions(p):
            q = apply_action(p, a)
            if q.is_over:
                edges.append((1 if q.winner == p.to_move else -1, None, None))
            else:
                q = _norm(q)
                edges.append((0, q, q.to_move == p.to_move))
                if q not in graph:
                    todo.append(q)
        graph[p] = edges
        if len(graph) > limit:
            raise RuntimeError(f"more than {limit} positions")
    return graph


def minimax_values(graph):
    """``{position: +d / -d / 0}`` (win in d, loss in d, draw) for the side to move."""
    value = {}
    undecided = set(graph)
    k = 1
    while True:
        decided = {}
        for p in undecided:
            wins, all_lost, worst = False, True, 0
            for kind, child, same in graph[p]:
                if kind:
                    v = kind  # decided before layer 1: +-1 total
                elif child in value:
                    c = value[child]
                    v = (c if same else -c) + (1 if c > 0 else -1) * (1 if same else -1)
                else:
                    all_lost = False
                    continue
                if v == k:
                    wins = True
                if v > 0:
                    all_lost = False
                else:
                    worst = max(worst, -v)
            if wins:
                decided[p] = k
            elif all_lost and graph[p] and worst == k:
                decided[p] = -k
        if not decided:  # nothing new at layer k: nothing can be decided later
            break
        value.update(decided)
        undecided -= set(decided)
        k += 1
        if k > 1000:
            raise RuntimeError("no convergence")
    return {p: value.get(p, 0) for p in graph}
