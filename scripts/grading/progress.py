"""How far a long grading run is: counts, time elapsed and an estimate of what remains.

On a terminal the progress is one line, written again in place; in a log (a
file, a pipe, ``make grade > log``) each step is a line of its own.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO


def duration(seconds: float) -> str:
    """``75`` -> ``'1 min 15 s'``; under a minute, in seconds.

    >>> duration(9.6), duration(75), duration(3725)
    ('10 s', '1 min 15 s', '62 min 5 s')
    """
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds} s"
    return f"{seconds // 60} min {seconds % 60} s"


class Progress:
    """Count ``total`` steps of ``what``, printing after each.

    The estimate of what remains is the time per step so far times the steps
    left (steps run in parallel count as they end).

    >>> import io
    >>> out = io.StringIO()
    >>> shown = Progress(2, "notebooks graded", stream=out, clock=iter([0, 4, 10]).__next__)
    >>> shown.step(); shown.step()
    >>> print(out.getvalue(), end="")
    1 of 2 notebooks graded, 4 s elapsed, about 4 s left
    2 of 2 notebooks graded, 10 s elapsed
    """

    def __init__(
        self,
        total: int,
        what: str,
        *,
        stream: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.total, self.what, self.done = total, what, 0
        self.stream = stream if stream is not None else sys.stdout
        self.clock = clock
        self.start = clock()
        self.terminal = self.stream.isatty()
        self.width = 0  # of the line on the terminal, to blank what a longer one left

    def step(self) -> None:
        self.done += 1
        elapsed = self.clock() - self.start
        line = f"{self.done} of {self.total} {self.what}, {duration(elapsed)} elapsed"
        if self.done < self.total:
            left = elapsed / self.done * (self.total - self.done)
            line += f", about {duration(left)} left"
        if self.terminal:
            self.stream.write("\r" + line.ljust(self.width))
            self.width = len(line)
            if self.done == self.total:
                self.stream.write("\n")
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def stop(self) -> None:
        """End the terminal's line early (an interrupted run)."""
        if self.terminal and 0 < self.done < self.total:
            self.stream.write("\n")
            self.stream.flush()
