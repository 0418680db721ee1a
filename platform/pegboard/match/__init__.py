"""A match being played: :class:`~pegboard.match.session.Session` and what it is made of
(seats, clocks, history, hints, bot workers).

No pyglet here: the window, online play, the terminal and the tests drive the same objects.
"""
