"""The browser pieces the views share, each knowing nothing of the session.

What lives here: the tree drawn in the browser by an ``st.components.v2`` component, with its
script and styles in ``static/`` (:mod:`.tree_view`), DOT drawn as SVG by Graphviz
(:mod:`.graphviz_svg`) and the small helpers every panel uses: the panel guard, a help caption,
a notice line (:mod:`.ui`).

It may import the drawing and the lower packages; never the session (``live``) or a view.
"""
