"""The exercise checks of chapter 5: a right answer passes, typical wrong ones are explained."""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_lib.exercises import ExerciseFailure, ch05


def lifted_quantities(X, y, w, b):
    X, y, w = (np.asarray(v, dtype=float) for v in (X, y, w))
    scores = y * (X @ w + b)
    if np.any(scores <= 0):
        raise ValueError("(w, b) does not separate the data")
    radius = np.sqrt(1.0 + np.max(np.sum(X**2, axis=1)))
    gamma = scores.min() / np.sqrt(w @ w + b * b)
    return radius, gamma, (radius / gamma) ** 2


def test_right_lifted_quantities_pass(capsys):
    ch05.check_lifted_quantities(lifted_quantities)
    assert capsys.readouterr().out == "All 9 checks passed for lifted_quantities.\n"


def test_forgotten_lift_in_the_radius_gets_its_hint():
    def unlifted_radius(X, y, w, b):
        radius, gamma, _ = lifted_quantities(X, y, w, b)
        radius = np.sqrt(radius**2 - 1.0)
        return radius, gamma, (radius / gamma) ** 2

    with pytest.raises(ExerciseFailure) as failure:
        ch05.check_lifted_quantities(unlifted_radius)
    message = str(failure.value)
    assert message.startswith("lifted_quantities(X=[[1.0], [-1.0]], y=[1, -1], w=[1.0], b=0.0)")
    assert "include the constant feature" in message
    assert "(b, w), not of w alone" not in message


def test_geometric_margin_gets_its_hint_on_the_first_case_with_a_bias():
    def geometric(X, y, w, b):
        radius, _, _ = lifted_quantities(X, y, w, b)
        X, y, w = (np.asarray(v, dtype=float) for v in (X, y, w))
        gamma = np.min(y * (X @ w + b)) / np.linalg.norm(w)
        return radius, gamma, (radius / gamma) ** 2

    with pytest.raises(ExerciseFailure) as failure:
        ch05.check_lifted_quantities(geometric)
    message = str(failure.value)
    assert message.startswith("lifted_quantities(X=[[2.0], [0.0]], y=[1, -1], w=[1.0], b=-1.0)")
    assert "(b, w), not of w alone" in message
    assert "constant feature" not in message


def test_missing_error_on_a_non_separator_is_caught_without_a_hint():
    def never_raises(X, y, w, b):
        X, y, w = (np.asarray(v, dtype=float) for v in (X, y, w))
        radius = np.sqrt(1.0 + np.max(np.sum(X**2, axis=1)))
        gamma = np.min(y * (X @ w + b)) / np.sqrt(w @ w + b * b)
        return radius, gamma, (radius / gamma) ** 2

    with pytest.raises(ExerciseFailure) as failure:
        ch05.check_lifted_quantities(never_raises)
    message = str(failure.value)
    assert "should raise ValueError" in message
    assert "Hint" not in message


def scaled_bound(X, y, w, b, s):
    X, y, w = (np.asarray(v, dtype=float) for v in (X, y, w))
    if np.any(y * (X @ w + b) <= 0):
        raise ValueError("(w, b) does not separate the data")
    radius_sq = s * s + np.max(np.sum(X**2, axis=1))
    gamma = np.min(y * (X @ w + b)) / np.sqrt(w @ w + (b / s) ** 2)
    return radius_sq / gamma**2


def test_right_scaled_bound_passes(capsys):
    ch05.check_scaled_bound(scaled_bound)
    assert capsys.readouterr().out == "All 9 checks passed for scaled_bound.\n"


def test_bias_not_divided_by_s_gets_its_hint():
    def b_not_scaled(X, y, w, b, s):
        X, y, w = (np.asarray(v, dtype=float) for v in (X, y, w))
        if np.any(y * (X @ w + b) <= 0):
            raise ValueError("(w, b) does not separate the data")
        radius_sq = s * s + np.max(np.sum(X**2, axis=1))
        return radius_sq / (np.min(y * (X @ w + b)) ** 2 / (w @ w + b * b))

    with pytest.raises(ExerciseFailure) as failure:
        ch05.check_scaled_bound(b_not_scaled)
    message = str(failure.value)
    assert "s=2.0" in message.splitlines()[0]
    assert "b / s" in message
    assert "includes s, not 1" not in message


def test_radius_without_s_gets_its_hint():
    def radius_with_one(X, y, w, b, s):
        return scaled_bound(X, y, w, b, s) + (1.0 - s * s) / (
            np.min(np.asarray(y) * (np.asarray(X) @ np.asarray(w) + b)) ** 2
            / (np.dot(w, w) + (b / s) ** 2)
        )

    with pytest.raises(ExerciseFailure) as failure:
        ch05.check_scaled_bound(radius_with_one)
    assert "includes s, not 1" in str(failure.value)
    assert "you used b" not in str(failure.value)


def test_an_unrelated_wrong_bound_gets_no_hint():
    with pytest.raises(ExerciseFailure) as failure:
        ch05.check_scaled_bound(lambda X, y, w, b, s: 2 * scaled_bound(X, y, w, b, s))
    assert "Hint" not in str(failure.value)


# -- a slip on the boundary: the strict test and the prediction rule, told apart -------------


def test_strict_test_on_the_boundary_gets_its_hint():
    def strict(X, y, w, b):
        scores = y * (X @ w + b)
        if np.any(scores < 0):
            raise ValueError("(w, b) does not separate the data")
        radius = np.sqrt(1.0 + np.max(np.sum(X**2, axis=1)))
        gamma = scores.min() / np.sqrt(w @ w + b * b)
        return radius, gamma, (radius / gamma) ** 2 if gamma > 0 else np.inf

    with pytest.raises(ExerciseFailure) as failure:
        ch05.check_lifted_quantities(strict)
    assert "test y * a <= 0, not < 0" in str(failure.value)
    assert "prediction rule" not in str(failure.value)


def predicted_wrong(X, y, w, b):
    """A first-year answer: 'not separated' tested with the course's prediction rule."""
    if np.any(np.where(X @ w + b > 0, 1, -1) != y):
        raise ValueError("(w, b) does not separate the data")
    scores = y * (X @ w + b)
    radius = np.sqrt(1.0 + np.max(np.sum(X**2, axis=1)))
    gamma = scores.min() / np.sqrt(w @ w + b * b)
    return radius, gamma, (radius / gamma) ** 2 if gamma > 0 else np.inf


def test_prediction_rule_as_the_separation_test_gets_its_own_hint():
    with pytest.raises(ExerciseFailure) as failure:
        ch05.check_lifted_quantities(predicted_wrong)
    message = str(failure.value)
    assert message.startswith("lifted_quantities(X=[[1.0], [0.0]], y=[1, -1], w=[1.0], b=0.0)")
    assert "the prediction rule (+1 if a > 0, -1 otherwise) gets its label right" in message
    assert "needs y a > 0 for every example" in message
    assert "not < 0" not in message  # the student never wrote < 0


def test_prediction_rule_in_scaled_bound_gets_its_own_hint():
    def scaled_predicted(X, y, w, b, s):
        if np.any(np.where(X @ w + b > 0, 1, -1) != y):
            raise ValueError("(w, b) does not separate the data")
        return scaled_bound(X, y, w, b, s) if np.all(y * (X @ w + b) > 0) else np.inf

    with pytest.raises(ExerciseFailure) as failure:
        ch05.check_scaled_bound(scaled_predicted)
    message = str(failure.value)
    assert "gets its label right" in message and "not < 0" not in message


# -- refuse_calls: by identity, not by name ------------------------------------------------


def _notebook_cell(source: str) -> dict:
    """Run ``source`` as a notebook cell does: its names become globals of one namespace."""
    namespace: dict = {"np": np}
    exec(source, namespace)  # noqa: S102 - the test's own source text, nothing external
    return namespace


def test_own_helper_with_the_library_name_is_accepted(capsys):
    cell = _notebook_cell(
        "def lifted_radius(X):\n"
        "    return np.sqrt(1.0 + np.max(np.sum(X**2, axis=1)))\n"
        "\n"
        "def lifted_quantities(X, y, w, b):\n"
        "    scores = y * (X @ w + b)\n"
        "    if np.any(scores <= 0):\n"
        "        raise ValueError('(w, b) does not separate the data')\n"
        "    R = lifted_radius(X)\n"
        "    gamma = scores.min() / np.sqrt(w @ w + b * b)\n"
        "    return R, gamma, (R / gamma) ** 2\n"
    )
    ch05.check_lifted_quantities(cell["lifted_quantities"])
    assert capsys.readouterr().out == "All 9 checks passed for lifted_quantities.\n"


@pytest.mark.parametrize(
    "imports, call, alias",
    [
        ("from perceptron_lib import lifted_radius as LR", "LR(X)", "LR"),
        ("import perceptron_lib as pl", "pl.lifted_radius(X)", None),
        ("import perceptron_lib as pl", "pl.theory.convergence.lifted_radius(X)", None),
        (
            "from perceptron_lib import lifted_radius\nR_of = lambda X: lifted_radius(X)",
            "R_of(X)",
            None,  # the lambda calls it by its own name
        ),
        (
            "import functools\nfrom perceptron_lib import lifted_radius\n"
            "R_of = functools.partial(lifted_radius, constant=1.0)",
            "R_of(X)",
            "R_of",
        ),
    ],
)
def test_the_library_under_another_name_is_refused(imports, call, alias):
    cell = _notebook_cell(
        f"{imports}\n"
        "def lifted_quantities(X, y, w, b):\n"
        "    scores = y * (X @ w + b)\n"
        "    if np.any(scores <= 0):\n"
        "        raise ValueError('(w, b) does not separate the data')\n"
        f"    R = {call}\n"
        "    gamma = scores.min() / np.sqrt(w @ w + b * b)\n"
        "    return R, gamma, (R / gamma) ** 2\n"
    )
    with pytest.raises(ExerciseFailure) as failure:
        ch05.check_lifted_quantities(cell["lifted_quantities"])
    message = str(failure.value)
    assert message.startswith("lifted_quantities calls the library's lifted_radius")
    assert ("(as " in message) == (alias is not None)  # the other name, when there is one
    assert alias is None or f"(as {alias})" in message


def test_the_library_in_a_closure_is_refused():
    from perceptron_lib import lifted_margin as margin_of

    def scaled(X, y, w, b, s):
        R_squared = s * s + np.max(np.sum(X**2, axis=1))
        return R_squared / margin_of(w, b, X, y, constant=s) ** 2

    with pytest.raises(ExerciseFailure, match=r"lifted_margin \(as margin_of\)"):
        ch05.check_scaled_bound(scaled)


def test_names_instead_of_functions_are_a_type_error():
    from perceptron_lib.exercises.failure import refuse_calls

    with pytest.raises(TypeError, match="not their names"):
        refuse_calls(lifted_quantities, ["lifted_radius"], name="lifted_quantities")


@pytest.mark.parametrize("checker", ["lifted_quantities", "scaled_bound"])
def test_a_prediction_of_plus_one_at_zero_is_refused_and_named(checker):
    # Seed 004's tie rule: predict +1 when a >= 0, and call a matching prediction
    # separated. A +1 example on the boundary (a = 0) is then taken as separated.
    def separated_or_raise(X, y, w, b):
        X, y, w = np.asarray(X, float), np.asarray(y), np.asarray(w, float)
        if np.any(np.where(X @ w + b >= 0, 1, -1) != y):
            raise ValueError("not a separator")
        return y * (X @ w + b)

    def lifted_quantities(X, y, w, b):
        scores = separated_or_raise(X, y, w, b)
        R = np.sqrt(1 + np.max(np.sum(np.asarray(X, float) ** 2, axis=1)))
        gamma = scores.min() / np.sqrt(np.asarray(w, float) @ np.asarray(w, float) + b * b)
        return R, gamma, (R / gamma) ** 2

    def scaled_bound(X, y, w, b, s):
        scores = separated_or_raise(X, y, w, b)
        w = np.asarray(w, float)
        gamma = scores.min() / np.sqrt(w @ w + (b / s) ** 2)
        return (s * s + np.max(np.sum(np.asarray(X, float) ** 2, axis=1))) / gamma**2

    answer = {"lifted_quantities": lifted_quantities, "scaled_bound": scaled_bound}[checker]
    check = getattr(ch05, f"check_{checker}")
    with pytest.raises(ExerciseFailure) as failure:
        check(answer)
    assert "has label +1" in str(failure.value) and "predicts -1" in str(failure.value)


def bound_with_deviations(X, y, u, gamma):
    if not np.any(u):
        raise ValueError("u is zero")
    Z = np.hstack([np.ones((len(X), 1)), X])
    zeta = np.maximum(0.0, gamma - y * (Z @ u) / np.linalg.norm(u))
    norm = np.sqrt(np.sum(zeta**2))
    radius = np.max(np.linalg.norm(Z, axis=1))
    return norm, ((radius + norm) / gamma) ** 2


def test_right_bound_with_deviations_passes(capsys):
    ch05.check_bound_with_deviations(bound_with_deviations)
    assert capsys.readouterr().out == "All 7 checks passed for bound_with_deviations.\n"


def _slipped(normalise=True, clip=True, root=True, constant=True, square=True):
    def answer(X, y, u, gamma):
        if not np.any(u):
            raise ValueError("u is zero")
        Z = np.hstack([np.ones((len(X), 1)), X])
        length = np.linalg.norm(u) if normalise else 1.0
        shortfall = gamma - y * (Z @ u) / length
        zeta = np.maximum(0.0, shortfall) if clip else shortfall
        norm = np.sqrt(np.sum(zeta**2)) if root else np.sum(zeta**2)
        radius = np.max(np.linalg.norm(Z if constant else X, axis=1))
        ratio = (radius + norm) / gamma
        return norm, ratio**2 if square else ratio

    return answer


@pytest.mark.parametrize(
    ("slip", "words"),
    [
        ({"normalise": False}, "divide u by its length"),
        ({"clip": False}, "deviates by 0, not by a negative amount"),
        ({"root": False}, "square root of the sum of the squared deviations"),
        ({"constant": False}, "include the constant feature"),
        ({"square": False}, "((R + ||zeta||) / gamma) squared"),
    ],
)
def test_each_slip_in_the_bound_with_deviations_gets_its_own_hint(slip, words):
    with pytest.raises(ExerciseFailure) as failure:
        ch05.check_bound_with_deviations(_slipped(**slip))
    message = str(failure.value)
    assert words in message
    others = [
        "divide u by its length",
        "not by a negative amount",
        "square root of the sum",
        "include the constant feature",
        "/ gamma) squared",
    ]
    assert sum(other in message for other in others) == 1


def test_no_error_on_a_zero_u_is_caught():
    def no_check(X, y, u, gamma):
        Z = np.hstack([np.ones((len(X), 1)), X])
        with np.errstate(all="ignore"):
            zeta = np.maximum(0.0, gamma - y * (Z @ u) / np.linalg.norm(u))
        norm = np.sqrt(np.sum(zeta**2))
        radius = np.max(np.linalg.norm(Z, axis=1))
        return norm, ((radius + norm) / gamma) ** 2

    with pytest.raises(ExerciseFailure) as failure:
        ch05.check_bound_with_deviations(no_check)
    assert "should raise ValueError" in str(failure.value)


def test_calling_the_library_is_refused():
    from perceptron_lib.theory.nonseparable import deviation_bound

    def borrowed(X, y, u, gamma):
        result = deviation_bound(X, y, u / np.linalg.norm(u), gamma)
        return result.deviation_norm, result.bound

    with pytest.raises(ExerciseFailure, match="deviation_bound"):
        ch05.check_bound_with_deviations(borrowed)


def test_bound_with_deviations_may_use_lifted_radius():
    """R is not what the exercise asks for: an answer that takes it from lifted_radius passes."""
    from perceptron_lib import lifted_radius

    def bound_with_deviations(X, y, u, gamma):
        if not np.any(u):
            raise ValueError("u is zero: it has no direction")
        u = np.asarray(u, dtype=float) / np.linalg.norm(u)
        lifted = np.column_stack([np.ones(len(X)), X])
        zeta = np.maximum(0.0, gamma - y * (lifted @ u))
        norm = float(np.sqrt(np.sum(zeta**2)))
        return norm, ((lifted_radius(X) + norm) / gamma) ** 2

    ch05.check_bound_with_deviations(bound_with_deviations)
