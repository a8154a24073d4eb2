"""Real binary tasks, from data that ships with scikit-learn (Pedregosa et al. 2011).

Nothing is downloaded. Each task is a :class:`~sklearn.utils.Bunch` with
float features ``X``, labels ``y`` in ``-1`` / ``+1`` (``+1`` is the class the
task asks about), the feature and target names, and a description.
"""

from __future__ import annotations

import numpy as np
from sklearn import datasets
from sklearn.utils import Bunch

from .checks import _check_int, _signs

__all__ = ["load_breast_cancer_task", "load_digits_pair", "load_iris_pair"]


def _task(X, is_positive, feature_names, target_names, summary, original_descr) -> Bunch:
    return Bunch(
        X=np.asarray(X, dtype=np.float64),
        y=_signs(np.asarray(is_positive)),
        feature_names=np.asarray(feature_names, dtype=object),
        target_names=np.asarray(target_names, dtype=object),
        DESCR=summary + "\n\n" + original_descr,
    )


def load_breast_cancer_task() -> Bunch:
    """The Wisconsin breast cancer data as a -1/+1 task: +1 is malignant.

    569 tumours, 30 real features. scikit-learn codes malignant as 0 and benign
    as 1; here the class to detect, malignant, is the positive class.

    Returns
    -------
    Bunch
        ``X`` (569, 30), ``y`` (+1 malignant, -1 benign), ``feature_names``,
        ``target_names`` (``target_names[0]`` names the -1 class,
        ``target_names[1]`` the +1 class) and ``DESCR``.

    Examples
    --------
    >>> from perceptron_lib.data.tasks import load_breast_cancer_task
    >>> task = load_breast_cancer_task()
    >>> task.X.shape, task.target_names.tolist(), int((task.y == 1).sum())
    ((569, 30), ['benign', 'malignant'], 212)
    """
    raw = datasets.load_breast_cancer()
    return _task(
        raw.data,
        raw.target == 0,  # 0 is malignant in scikit-learn's coding
        raw.feature_names,
        ["benign", "malignant"],
        "Binary task from scikit-learn's breast cancer data: y = +1 malignant, y = -1 benign.",
        raw.DESCR,
    )


_IRIS_SPECIES = ("setosa", "versicolor", "virginica")


def load_iris_pair(first: str = "setosa", second: str = "versicolor") -> Bunch:
    """Two of the three iris species as a -1/+1 task: ``first`` is -1, ``second`` is +1.

    100 flowers, 4 features (sepal and petal length and width, cm). Setosa is
    linearly separable from either other species; versicolor and virginica are
    not separable from each other.

    Parameters
    ----------
    first : {"setosa", "versicolor", "virginica"}, default="setosa"
        The species labelled -1.
    second : {"setosa", "versicolor", "virginica"}, default="versicolor"
        The species labelled +1; must differ from ``first``.

    Returns
    -------
    Bunch
        ``X`` (100, 4), ``y``, ``feature_names``, ``target_names`` (``[first,
        second]``, the names of the -1 and +1 class) and ``DESCR``.

    Examples
    --------
    >>> from perceptron_lib.data.tasks import load_iris_pair
    >>> task = load_iris_pair("versicolor", "virginica")
    >>> task.X.shape, task.target_names.tolist(), sorted(set(task.y.tolist()))
    ((100, 4), ['versicolor', 'virginica'], [-1, 1])
    """
    for name, value in (("first", first), ("second", second)):
        if value not in _IRIS_SPECIES:
            raise ValueError(f"{name} must be one of {list(_IRIS_SPECIES)}, got {value!r}.")
    if first == second:
        raise ValueError(f"first and second must be different species, both are {first!r}.")
    raw = datasets.load_iris()
    codes = (_IRIS_SPECIES.index(first), _IRIS_SPECIES.index(second))
    keep = np.isin(raw.target, codes)
    return _task(
        raw.data[keep],
        raw.target[keep] == codes[1],
        raw.feature_names,
        [first, second],
        f"Binary task from scikit-learn's iris data: y = -1 {first}, y = +1 {second}.",
        raw.DESCR,
    )


def load_digits_pair(first: int = 3, second: int = 8) -> Bunch:
    """Two handwritten digits as a -1/+1 task: ``first`` is -1, ``second`` is +1.

    8x8 images with pixel intensities 0 to 16, flattened to 64 features; about
    180 images of each digit.

    Parameters
    ----------
    first : int, default=3
        The digit labelled -1, 0 to 9.
    second : int, default=8
        The digit labelled +1, 0 to 9; must differ from ``first``.

    Returns
    -------
    Bunch
        ``X`` (n, 64), ``y``, ``feature_names`` (``pixel_row_column``),
        ``target_names`` (``[str(first), str(second)]``) and ``DESCR``.

    Examples
    --------
    >>> from perceptron_lib.data.tasks import load_digits_pair
    >>> task = load_digits_pair(3, 8)
    >>> task.X.shape, task.target_names.tolist()
    ((357, 64), ['3', '8'])
    """
    for name, value in (("first", first), ("second", second)):
        _check_int(value, name, 0)
        if value > 9:
            raise ValueError(f"{name} must be a digit from 0 to 9, got {value}.")
    if first == second:
        raise ValueError(f"first and second must be different digits, both are {first}.")
    raw = datasets.load_digits()
    keep = np.isin(raw.target, (first, second))
    return _task(
        raw.data[keep],
        raw.target[keep] == second,
        raw.feature_names,
        [str(first), str(second)],
        f"Binary task from scikit-learn's digits data: y = -1 digit {first}, "
        f"y = +1 digit {second}.",
        raw.DESCR,
    )
