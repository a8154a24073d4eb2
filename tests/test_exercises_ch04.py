"""Chapter 4's checkers: slips the reviewer found, each rejected with a hint that names it."""

import numpy as np
import pytest

from perceptron_lib.exercises import ExerciseFailure, ch04


def _charged(w, b, X, y):
    # max(0, -y (w . x + b)) for every example, in NumPy.
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    return np.maximum(0.0, -y * (X @ np.asarray(w, dtype=float) + b))


def _mistakes(w, b, X, y):
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    return y * (X @ np.asarray(w, dtype=float) + b) <= 0


# -- the criterion and its gradient ---------------------------------------------------


def test_numpy_one_liners_on_the_arguments_as_given_pass(capsys):
    # No np.asarray: X @ w and -y * (...) must work on the checker's arguments.
    def criterion(w, b, X, y):
        return np.mean(np.maximum(0, -y * (X @ w + b)))

    def gradient(w, b, X, y):
        wrong = y * (X @ w + b) <= 0
        return -(y[wrong] @ X[wrong]) / len(y), -y[wrong].sum() / len(y)

    ch04.check_criterion(criterion)
    ch04.check_criterion_gradient(gradient)
    out = capsys.readouterr().out
    assert "All 7 checks passed for criterion." in out
    assert "All 7 checks passed for gradient." in out


def test_plain_python_answers_pass(capsys):
    # Loops with zip and sum, as a student who thinks of lists writes them.
    def criterion(w, b, X, y):
        total = 0.0
        for x_i, y_i in zip(X, y, strict=True):
            total += max(0.0, -y_i * (sum(wj * xj for wj, xj in zip(w, x_i, strict=True)) + b))
        return total / len(y)

    def gradient(w, b, X, y):
        grad_w, grad_b = [0.0] * len(w), 0.0
        for x_i, y_i in zip(X, y, strict=True):
            if y_i * (sum(wj * xj for wj, xj in zip(w, x_i, strict=True)) + b) <= 0:
                grad_w = [g - y_i * xj / len(y) for g, xj in zip(grad_w, x_i, strict=True)]
                grad_b -= y_i / len(y)
        return grad_w, grad_b

    ch04.check_criterion(criterion)
    ch04.check_criterion_gradient(gradient)
    out = capsys.readouterr().out
    assert "All 7 checks passed for criterion." in out
    assert "All 7 checks passed for gradient." in out


def test_an_answer_that_changes_its_input_is_rejected():
    def in_place(w, b, X, y):
        X[0, 0] += 1.0  # changes the caller's array
        return float(np.mean(_charged(w, b, X, y)))

    with pytest.raises(ExerciseFailure, match="changed its argument X in place"):
        ch04.check_criterion(in_place)


def test_criterion_charging_every_example_its_absolute_activation_is_explained():
    def absolute(w, b, X, y):
        X = np.asarray(X, dtype=float)
        return float(np.mean(np.abs(X @ np.asarray(w, dtype=float) + b)))

    with pytest.raises(ExerciseFailure) as failure:
        ch04.check_criterion(absolute)
    message = str(failure.value)
    assert "correctly classified example" in message and "costs nothing" in message
    assert "mind the sign" not in message


def test_criterion_with_the_wrong_sign_is_still_explained():
    def wrong_sign(w, b, X, y):
        X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
        return float(np.mean(np.maximum(0.0, y * (X @ np.asarray(w, dtype=float) + b))))

    with pytest.raises(ExerciseFailure) as failure:
        ch04.check_criterion(wrong_sign)
    assert "costs nothing" in str(failure.value)


def test_criterion_averaged_over_the_mistakes_is_explained():
    def over_mistakes(w, b, X, y):
        wrong = _mistakes(w, b, X, y)
        if not wrong.any():
            return 0.0
        return float(_charged(w, b, X, y).sum() / wrong.sum())

    with pytest.raises(ExerciseFailure) as failure:
        ch04.check_criterion(over_mistakes)
    assert "by the number of examples n, not by the number of mistakes" in str(failure.value)


def test_criterion_averaged_over_no_mistakes_is_explained():
    def over_mistakes(w, b, X, y):
        charged = _charged(w, b, X, y)
        with np.errstate(invalid="ignore"):
            return float(charged[_mistakes(w, b, X, y)].mean())

    with pytest.raises(ExerciseFailure) as failure, pytest.warns(RuntimeWarning):
        ch04.check_criterion(over_mistakes)
    assert "not by the number of mistakes (here 0)" in str(failure.value)


def test_gradient_averaged_over_the_mistakes_is_explained():
    def over_mistakes(w, b, X, y):
        X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
        wrong = _mistakes(w, b, X, y)
        k = max(int(wrong.sum()), 1)
        return -(y[wrong] @ X[wrong]) / k, -float(y[wrong].sum()) / k

    with pytest.raises(ExerciseFailure) as failure:
        ch04.check_criterion_gradient(over_mistakes)
    assert "by the number of examples n, not by the number of mistakes" in str(failure.value)


# -- early stopping ---------------------------------------------------------------------


def _with_patience(patience, return_the_stop=False):
    # Stop after `patience` passes in a row without a new smallest error; keep the best
    # (or, a second slip, return the pass where it stopped).
    def best_pass(validation_errors):
        errors = list(validation_errors)
        best, without = 0, 0
        for e in range(1, len(errors)):
            if errors[e] < errors[best]:
                best, without = e, 0
            else:
                without += 1
                if without == patience:
                    return e + 1 if return_the_stop else best + 1
        return best + 1

    return best_pass


@pytest.mark.parametrize("patience", [2, 3, 4])
def test_best_pass_with_a_patience_is_rejected_with_its_hint(patience):
    with pytest.raises(ExerciseFailure) as failure:
        ch04.check_best_pass(_with_patience(patience))
    message = str(failure.value)
    assert "returned 3" in message and "should return 8" in message
    assert "patience" in message and "falls again later" in message


@pytest.mark.parametrize("patience", [5, 10, 20, 50, 100])
def test_best_pass_with_a_longer_patience_is_rejected_too(patience):
    # The ten-pass case waits only four passes for its minimum; the hundred-pass
    # plateau catches the patience values libraries use by default.
    with pytest.raises(ExerciseFailure) as failure:
        ch04.check_best_pass(_with_patience(patience))
    message = str(failure.value)
    assert "an array of shape (103,)" in message  # the long case, abbreviated
    assert "returned 2" in message and "should return 103" in message
    assert "patience" in message and "falls again later, to 0.2 at pass 103" in message


def test_best_pass_returning_where_a_patience_stops_is_told_to_return_the_kept_pass():
    with pytest.raises(ExerciseFailure) as failure:
        ch04.check_best_pass(_with_patience(10, return_the_stop=True))
    message = str(failure.value)
    assert "returned 12" in message and "should return 103" in message
    assert "where a rule with a patience would stop training" in message
    assert "whose weights early stopping keeps" in message


def test_best_pass_is_given_numpy_arrays_as_the_chapter_curves_are():
    # An answer that only works on lists fails, and says why.
    with pytest.raises(ExerciseFailure) as failure:
        ch04.check_best_pass(lambda errors: errors.index(min(errors)) + 1)
    assert "AttributeError" in str(failure.value) and "index" in str(failure.value)
    # Array-only methods work on every case.
    ch04.check_best_pass(lambda errors: int(np.asarray(errors).argmin()) + 1)


def test_best_pass_hint_for_counting_from_zero_only_on_pass_zero():
    with pytest.raises(ExerciseFailure) as failure:
        ch04.check_best_pass(lambda errors: int(np.argmin(errors)))
    assert "there is no pass 0" in str(failure.value)
    # argmax + 1 is one less than the answer on [0.3, 0.1], but it is not a count from 0.
    with pytest.raises(ExerciseFailure) as failure:
        ch04.check_best_pass(lambda errors: int(np.argmax(errors)) + 1)
    assert "counted from 1" not in str(failure.value)


def test_best_pass_stopping_at_the_first_strict_rise_is_named():
    def before_first_rise(validation_errors):
        errors = list(validation_errors)
        for e in range(1, len(errors)):
            if errors[e] > errors[e - 1]:
                return e
        return len(errors)

    with pytest.raises(ExerciseFailure) as failure:
        ch04.check_best_pass(before_first_rise)
    message = str(failure.value)
    assert message.startswith("best_pass(validation_errors=[0.4, 0.2, 0.2, 0.3]) returned 3")
    assert "first rises, at pass 4," in message and "earliest" in message
