"""The exercise checks of chapters 3 and 4: a right answer passes, wrong ones are explained."""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_lib.exercises import ExerciseFailure, ch03, ch04

# -- chapter 3 ---------------------------------------------------------------


def update(w, b, x, y):
    w, x = np.asarray(w, dtype=float), np.asarray(x, dtype=float)
    if y * (w @ x + b) <= 0:
        return w + y * x, b + y
    return w, b


def update_with_test(is_mistake):
    # The right update with another mistake test is_mistake(w, b, x, y).
    def wrong(w, b, x, y):
        w, x = np.asarray(w, dtype=float), np.asarray(x, dtype=float)
        return (w + y * x, b + y) if is_mistake(w, b, x, y) else (w, b)

    return wrong


@pytest.mark.parametrize(
    "is_mistake",
    [
        lambda w, b, x, y: y * (w @ x + b) < 1,
        lambda w, b, x, y: y * (w @ x + b) <= 0.5,
    ],
    ids=["y*a<1", "y*a<=0.5"],
)
def test_update_with_a_margin_rule_gets_the_margin_hint_only(is_mistake):
    # No case had 0 < y * a <= 1, so margin rules passed: the case with y * a = 0.5 fails.
    with pytest.raises(ExerciseFailure) as failure:
        ch03.check_update(update_with_test(is_mistake))
    message = str(failure.value)
    assert "asks for no margin" in message
    assert "y * a < 0" not in message and "already on its correct side" not in message


def test_update_leaving_the_bias_out_of_the_test_gets_its_hint_not_the_strict_one():
    # Before, the only diagnosis left was the strict test, contradicted by a case it passed.
    with pytest.raises(ExerciseFailure) as failure:
        ch03.check_update(update_with_test(lambda w, b, x, y: y * (w @ x) <= 0))
    message = str(failure.value)
    assert "not y * (w . x) <= 0" in message
    assert "not y * a < 0" not in message


def test_update_answering_plus_one_at_zero_gets_its_hint_not_the_strict_one():
    def at_or_above(w, b, x, y):
        return (1 if w @ x + b >= 0 else -1) != y

    with pytest.raises(ExerciseFailure) as failure:
        ch03.check_update(update_with_test(at_or_above))
    message = str(failure.value)
    assert "answering +1 at a >= 0" in message
    assert "not y * a < 0" not in message


def update_strict(w, b, x, y):
    w, x = np.asarray(w, dtype=float), np.asarray(x, dtype=float)
    if y * (w @ x + b) < 0:  # the classic slip: a tie is not a mistake
        return w + y * x, b + y
    return w, b


def test_right_update_passes(capsys):
    ch03.check_update(update)
    assert capsys.readouterr().out == "All 10 checks passed for update.\n"


def test_strict_test_fails_at_zero_weights_with_a_hint():
    with pytest.raises(ExerciseFailure) as failure:
        ch03.check_update(update_strict)
    message = str(failure.value)
    assert message.startswith("update(w=[0.0], b=0.0, x=[2.0], y=1) returned")
    assert "should return ([2.0], 1.0)" in message
    assert "y * a <= 0" in message


def test_update_on_a_correct_example_is_caught():
    def always(w, b, x, y):
        return np.asarray(w, dtype=float) + y * np.asarray(x, dtype=float), b + y

    with pytest.raises(ExerciseFailure, match="already on its correct side"):
        ch03.check_update(always)


def test_update_wrong_sign_is_explained():
    def backwards(w, b, x, y):
        w, x = np.asarray(w, dtype=float), np.asarray(x, dtype=float)
        return (w - y * x, b - y) if y * (w @ x + b) <= 0 else (w, b)

    with pytest.raises(ExerciseFailure, match="wrong sign"):
        ch03.check_update(backwards)


def test_update_that_changes_its_input_is_caught():
    # The check passes lists; writing into one changes the caller's data.
    def list_mutating(w, b, x, y):
        new_w, new_b = update(w, b, x, y)
        w[0] = 99.0
        return new_w, new_b

    with pytest.raises(ExerciseFailure, match="in place"):
        ch03.check_update(list_mutating)


def test_update_that_adds_into_the_given_array_is_caught():
    # The classic in-place slip, with arrays as the chapter passes them.
    def in_place(w, b, x, y):
        if y * (w @ x + b) <= 0:
            w += y * x
            return w, b + y
        return w, b

    with pytest.raises(ExerciseFailure, match="changed its argument w in place"):
        ch03.check_update(in_place)


def test_update_without_the_bias_gets_the_bias_hint_and_only_it():
    def no_bias(w, b, x, y):
        new_w, _ = update(w, b, x, y)
        return new_w, b

    with pytest.raises(ExerciseFailure) as failure:
        ch03.check_update(no_bias)
    message = str(failure.value)
    assert "b + y" in message
    assert "y * a <= 0" not in message and "wrong sign" not in message


def test_update_hints_are_not_shown_for_an_unrelated_mistake():
    def doubled(w, b, x, y):
        new_w, new_b = update(w, b, x, y)
        return 2 * new_w, new_b

    with pytest.raises(ExerciseFailure) as failure:
        ch03.check_update(doubled)
    assert "Hint" not in str(failure.value)
    with pytest.raises(ExerciseFailure) as failure:
        ch03.check_update(update_strict)
    message = str(failure.value)
    assert "b + y" not in message and "correct side" not in message


def train_epoch(X, y, w, b):
    w, updates = np.array(w, dtype=float), 0
    for x, label in zip(np.asarray(X, dtype=float), y, strict=True):
        if label * (w @ x + b) <= 0:
            w, b, updates = w + label * x, b + label, updates + 1
    return w, b, updates


def test_right_epoch_passes(capsys):
    ch03.check_epoch(train_epoch)
    assert "All 7 checks passed for train_epoch." in capsys.readouterr().out


def predicted(w, x, b):
    # The prediction of the course: +1 if a > 0, otherwise -1 (a tie predicts -1).
    return 1 if np.asarray(w, dtype=float) @ np.asarray(x, dtype=float) + b > 0 else -1


def test_update_testing_the_prediction_gets_the_prediction_hint_not_the_strict_one():
    # The slip: "a mistake is a wrong prediction". It differs from y * a <= 0 only on a
    # negative example at a = 0, which predict gets right and training must update.
    def by_prediction(w, b, x, y):
        w, x = np.asarray(w, dtype=float), np.asarray(x, dtype=float)
        if predicted(w, x, b) != y:
            return w + y * x, b + y
        return w, b

    with pytest.raises(ExerciseFailure) as failure:
        ch03.check_update(by_prediction)
    message = str(failure.value)
    assert message.startswith("update(w=[0.0, 0.0], b=0.0, x=[1.0, 3.0], y=-1)")
    assert "instead of comparing the prediction with y" in message
    assert "not y * a < 0" not in message


def test_epoch_testing_the_prediction_is_rejected_with_its_hint():
    def by_prediction(X, y, w, b):
        w, updates = np.array(w, dtype=float), 0
        for x, label in zip(np.asarray(X, dtype=float), y, strict=True):
            if predicted(w, x, b) != label:
                w, b, updates = w + label * x, b + label, updates + 1
        return w, b, updates

    with pytest.raises(ExerciseFailure) as failure:
        ch03.check_epoch(by_prediction)
    message = str(failure.value)
    assert message.startswith("train_epoch(X=[[1.0]], y=[-1], w=[0.0], b=0.0)")
    assert "should return ([-1.0], -1.0, 1)" in message
    assert "instead of comparing the prediction with y" in message
    assert "not y * a < 0" not in message and "did not move" not in message


def test_epoch_with_the_strict_test_gets_the_strict_hint():
    def strict(X, y, w, b):
        w, updates = np.array(w, dtype=float), 0
        for x, label in zip(np.asarray(X, dtype=float), y, strict=True):
            if label * (w @ x + b) < 0:
                w, b, updates = w + label * x, b + label, updates + 1
        return w, b, updates

    with pytest.raises(ExerciseFailure) as failure:
        ch03.check_epoch(strict)
    message = str(failure.value)
    assert "not y * a < 0" in message
    assert "comparing the prediction" not in message and "did not move" not in message


def test_batch_style_epoch_fails_with_the_smallest_case():
    def frozen_weights(X, y, w, b):
        # Decides every mistake with the weights from the start of the pass.
        X, y, w = np.asarray(X, dtype=float), np.asarray(y, dtype=float), np.asarray(w, float)
        wrong = y * (X @ w + b) <= 0
        return w + y[wrong] @ X[wrong], b + y[wrong].sum(), int(wrong.sum())

    with pytest.raises(ExerciseFailure) as failure:
        ch03.check_epoch(frozen_weights)
    message = str(failure.value)
    assert message.startswith("train_epoch(X=[[1.0], [2.0]], y=[1, 1], w=[0.0], b=0.0)")
    assert "should return ([1.0], 1.0, 1)" in message
    assert "at that moment" in message


def test_epoch_without_bias_update_gets_the_bias_hint_not_the_timing_one():
    def no_bias(X, y, w, b):
        w, updates = np.array(w, dtype=float), 0
        for x, label in zip(np.asarray(X, dtype=float), y, strict=True):
            if label * (w @ x + b) <= 0:
                w, updates = w + label * x, updates + 1
        return w, b, updates

    with pytest.raises(ExerciseFailure) as failure:
        ch03.check_epoch(no_bias)
    message = str(failure.value)
    assert "update the bias too" in message
    assert "at that moment" not in message


def test_epoch_that_adds_into_the_given_array_is_caught():
    # The check passes arrays, as the chapter does: w += ... changes the caller's w.
    def in_place(X, y, w, b):
        updates = 0
        for x, label in zip(X, y, strict=True):
            if label * (w @ x + b) <= 0:
                w += label * x
                b, updates = b + label, updates + 1
        return w, b, updates

    with pytest.raises(ExerciseFailure, match="changed its argument w in place"):
        ch03.check_epoch(in_place)


def test_epoch_leaving_the_bias_out_of_the_test_gets_its_hint():
    def no_bias_in_test(X, y, w, b):
        w, updates = np.array(w, dtype=float), 0
        for x, label in zip(np.asarray(X, dtype=float), y, strict=True):
            if label * (w @ x) <= 0:
                w, b, updates = w + label * x, b + label, updates + 1
        return w, b, updates

    with pytest.raises(ExerciseFailure) as failure:
        ch03.check_epoch(no_bias_in_test)
    message = str(failure.value)
    assert "not y * (w . x) <= 0" in message
    assert "not y * a < 0" not in message


def test_epoch_counting_every_example_gets_the_counting_hint_only():
    def counts_all(X, y, w, b):
        new_w, new_b, _ = train_epoch(X, y, w, b)
        return new_w, new_b, len(y)

    with pytest.raises(ExerciseFailure) as failure:
        ch03.check_epoch(counts_all)
    message = str(failure.value)
    assert "count the updates only" in message
    assert "at that moment" not in message and "bias" not in message


def test_epoch_hints_are_not_shown_for_an_unrelated_mistake():
    def off_by_one(X, y, w, b):
        new_w, new_b, n = train_epoch(X, y, w, b)
        return new_w, new_b + 1.0, n

    with pytest.raises(ExerciseFailure) as failure:
        ch03.check_epoch(off_by_one)
    assert "Hint" not in str(failure.value)


def rosenblatt(w, b, x, y, eta):
    w, x = np.asarray(w, dtype=float), np.asarray(x, dtype=float)
    y_hat = 1 if w @ x + b >= 0 else -1
    return w + eta * (y - y_hat) * x, b + eta * (y - y_hat)


def test_right_rosenblatt_update_passes(capsys):
    ch03.check_rosenblatt_update(rosenblatt)
    assert "All 7 checks passed" in capsys.readouterr().out


def test_rosenblatt_leaving_the_bias_out_of_the_output_is_caught_with_its_hint():
    # Before, the only case with b != 0 kept the sign of w . x: this slip passed.
    def no_bias(w, b, x, y, eta):
        w, x = np.asarray(w, dtype=float), np.asarray(x, dtype=float)
        y_hat = 1 if w @ x >= 0 else -1
        return w + eta * (y - y_hat) * x, b + eta * (y - y_hat)

    with pytest.raises(ExerciseFailure) as failure:
        ch03.check_rosenblatt_update(no_bias)
    message = str(failure.value)
    assert "add the bias before the threshold" in message
    assert "thr(0)" not in message


def test_rosenblatt_that_adds_into_the_given_array_is_caught():
    def in_place(w, b, x, y, eta):
        y_hat = 1 if w @ x + b >= 0 else -1
        w += eta * (y - y_hat) * x
        return w, b + eta * (y - y_hat)

    with pytest.raises(ExerciseFailure, match="changed its argument w in place"):
        ch03.check_rosenblatt_update(in_place)


def test_rosenblatt_with_thr_zero_negative_fails_on_the_tie():
    def thr_zero_negative(w, b, x, y, eta):
        w, x = np.asarray(w, dtype=float), np.asarray(x, dtype=float)
        y_hat = 1 if w @ x + b > 0 else -1
        return w + eta * (y - y_hat) * x, b + eta * (y - y_hat)

    with pytest.raises(ExerciseFailure) as failure:
        ch03.check_rosenblatt_update(thr_zero_negative)
    assert str(failure.value).startswith(
        "rosenblatt_update(w=[0.0], b=0.0, x=[2.0], y=1, eta=1.0)"
    )
    assert "thr(0) = +1" in str(failure.value)


def test_rosenblatt_without_eta_gets_the_eta_hint_only():
    def no_eta(w, b, x, y, eta):
        return rosenblatt(w, b, x, y, 1.0)

    with pytest.raises(ExerciseFailure) as failure:
        ch03.check_rosenblatt_update(no_eta)
    message = str(failure.value)
    assert "learning rate eta" in message
    assert "thr(0)" not in message and "2 * y" not in message


def test_rosenblatt_with_step_eta_d_gets_the_factor_two_hint_only():
    def half_step(w, b, x, y, eta):
        w, x = np.asarray(w, dtype=float), np.asarray(x, dtype=float)
        y_hat = 1 if w @ x + b >= 0 else -1
        return (w + eta * y * x, b + eta * y) if y_hat != y else (w, b)

    with pytest.raises(ExerciseFailure) as failure:
        ch03.check_rosenblatt_update(half_step)
    message = str(failure.value)
    assert "2 * y" in message
    assert "thr(0)" not in message and "learning rate" not in message


def test_rosenblatt_thr_hint_is_not_shown_for_an_unrelated_mistake():
    def wrong_sign(w, b, x, y, eta):
        new_w, new_b = rosenblatt(w, b, x, y, eta)
        return 2 * np.asarray(w, dtype=float) - new_w, 2 * b - new_b

    with pytest.raises(ExerciseFailure) as failure:
        ch03.check_rosenblatt_update(wrong_sign)
    assert "Hint" not in str(failure.value)


# -- chapter 4 ---------------------------------------------------------------


def criterion(w, b, X, y):
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    return float(np.mean(np.maximum(0.0, -y * (X @ np.asarray(w, dtype=float) + b))))


def gradient(w, b, X, y):
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    wrong = y * (X @ np.asarray(w, dtype=float) + b) <= 0
    return -(y[wrong] @ X[wrong]) / len(y), -y[wrong].sum() / len(y)


def test_right_criterion_and_gradient_pass(capsys):
    ch04.check_criterion(criterion)
    ch04.check_criterion_gradient(gradient)
    out = capsys.readouterr().out
    assert "All 7 checks passed for criterion." in out
    assert "All 7 checks passed for gradient." in out


def test_criterion_summed_instead_of_averaged_is_explained():
    def summed(w, b, X, y):
        return criterion(w, b, X, y) * len(y)

    with pytest.raises(ExerciseFailure, match="number of examples n"):
        ch04.check_criterion(summed)


def test_zero_one_loss_in_place_of_the_criterion_is_explained():
    def zero_one(w, b, X, y):
        X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
        return float(np.mean(y * (X @ np.asarray(w, dtype=float) + b) <= 0))

    with pytest.raises(ExerciseFailure, match="counts mistakes"):
        ch04.check_criterion(zero_one)


def test_gradient_with_flipped_sign_is_explained():
    def flipped(w, b, X, y):
        grad_w, grad_b = gradient(w, b, X, y)
        return -grad_w, -grad_b

    with pytest.raises(ExerciseFailure) as failure:
        ch04.check_criterion_gradient(flipped)
    assert str(failure.value).startswith("gradient(w=[1.0], b=0.0, X=[[2.0]], y=[-1])")
    assert "sign is flipped" in str(failure.value)


def test_gradient_ignoring_ties_is_explained():
    def strict(w, b, X, y):
        X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
        wrong = y * (X @ np.asarray(w, dtype=float) + b) < 0
        return -(y[wrong] @ X[wrong]) / len(y), -y[wrong].sum() / len(y)

    with pytest.raises(ExerciseFailure, match="counts as a mistake"):
        ch04.check_criterion_gradient(strict)


def test_gradient_tie_hint_is_not_shown_for_another_mistake():
    def flipped(w, b, X, y):
        grad_w, grad_b = gradient(w, b, X, y)
        return -grad_w, -grad_b

    def doubled(w, b, X, y):
        grad_w, grad_b = gradient(w, b, X, y)
        return 2 * grad_w + 1.0, grad_b

    for wrong in (flipped, doubled):
        with pytest.raises(ExerciseFailure) as failure:
            ch04.check_criterion_gradient(wrong)
        assert "counts as a mistake" not in str(failure.value)


def test_criterion_hints_are_not_shown_for_an_unrelated_mistake():
    def plus_one(w, b, X, y):
        return criterion(w, b, X, y) + 1.0

    with pytest.raises(ExerciseFailure) as failure:
        ch04.check_criterion(plus_one)
    assert "Hint" not in str(failure.value)


def test_best_pass_right_and_wrong(capsys):
    ch04.check_best_pass(lambda validation_errors: int(np.argmin(validation_errors)) + 1)
    assert "All 8 checks passed" in capsys.readouterr().out
    with pytest.raises(ExerciseFailure, match="no pass 0") as failure:
        ch04.check_best_pass(lambda validation_errors: int(np.argmin(validation_errors)))
    assert str(failure.value).startswith("best_pass(validation_errors=[0.2]) returned 0")

    def last_of_ties(validation_errors):
        errors = np.asarray(validation_errors)
        return int(np.flatnonzero(errors == errors.min())[-1]) + 1

    with pytest.raises(ExerciseFailure, match="earliest"):
        ch04.check_best_pass(last_of_ties)


def test_best_pass_stopping_at_the_first_rise_is_rejected_with_its_hint():
    # The slip: stop as soon as a pass does not improve. On [0.3, 0.2, 0.25, 0.1] it
    # answers 2, but the error falls again and the best pass is 4.
    def first_rise(validation_errors):
        errors = list(validation_errors)
        for k in range(1, len(errors)):
            if errors[k] >= errors[k - 1]:
                return k
        return len(errors)

    with pytest.raises(ExerciseFailure) as failure:
        ch04.check_best_pass(first_rise)
    message = str(failure.value)
    assert message.startswith("best_pass(validation_errors=[0.3, 0.2, 0.25, 0.1]) returned 2")
    assert "should return 4" in message
    assert "falls again later" in message and "earliest" not in message
