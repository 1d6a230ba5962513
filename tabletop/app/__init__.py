"""A local web page for players and designers: ``python -m tabletop.app``.

Three pages, each a view of what the command lines already compute:

* **Dice advisor** (Master Panache): the dice rolled and those set aside, what the turn
  plays for (points, a Master Panache zero, a positive total, at least ``k``, or the
  solved duel's winning chance at given points), and every distinct keep valued, best
  first (:func:`panache.advise`, as ``python -m panache advise``).
* **Variant explorer** (the four games): every rule knob of the game's ``Rules`` as a
  field holding its default, the balance card of the variant beside the seed's rules
  with intervals, the verdict and the comparison figure
  (:func:`tabletop.balance.compare_rules`, as ``python -m <game> compare``), a download
  as Markdown or CSV, and the command line that reproduces it.
* **Reports**: the Markdown reports of ``reports/`` with their figures, the index first.

The page is built with `Panel <https://panel.holoviz.org>`_: its widgets and layouts
are Python objects (no hand-written JavaScript), the same components run inside the
notebooks, and ``panel serve`` machinery gives a local server in one call. Streamlit
reruns a whole script on every click, which suits neither cached solves nor a form of
knobs; Voilà serves notebooks, not an app with its own callbacks.

The page's work is done by the plain functions of :mod:`tabletop.app.callbacks`, which
the tests call directly; :mod:`tabletop.app.pages` only lays them out. Bad input gets the
command line's one-line message, shown under the field it names.
"""
