"""The teacher's page of a class (Streamlit), cut at its seams and imported by name:
start, end and take back a class (:mod:`.start`), the join and room boxes (:mod:`.room_box`),
the quiz's poll kept in step with the class and the screen published as a frame
(:mod:`.sync`), Peer Instruction's vote (:mod:`.vote`) and the class's answers on the tree
(:mod:`.heat`).

It imports the class's core, what both pages share (:mod:`app.classroom.shared`), the inputs,
the session (``live``) and the quiz's core; never the student's page.
"""
