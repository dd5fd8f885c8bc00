"""The page the live search draws: the main area and the sidebar.

What lives here: the classroom screen as one fragment, header and lesson strip (:mod:`.page`),
the page's style and the sidebar's widgets (:mod:`.sidebar`), the detail tabs' panels about the
iteration (:mod:`.panels`), about the game and its runs (:mod:`.game_panels`), and the A/B tab
(:mod:`.ab_panel`).

It may import every folder below it: the class's teacher side, the lesson and quiz views, the
session (``live``), the components, the inputs and the pure folders. Only ``app/main.py``
imports it.
"""
