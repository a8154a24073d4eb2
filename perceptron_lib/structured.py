"""The structured perceptron for sequence labelling (Collins 2002), and its averaged form."""

from __future__ import annotations

import warnings
from numbers import Integral

import numpy as np
from numpy.typing import NDArray
from scipy import sparse
from sklearn.base import BaseEstimator
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval
from sklearn.utils.validation import check_is_fitted

from ._base import all_or_nothing, unchecked_overflow
from .loops.viterbi import emission_scores, viterbi
from .theory.joint_features import (
    joint_feature_map,
    joint_feature_names,
    n_joint_features,
    split_weights,
)

__all__ = ["StructuredPerceptron"]


class StructuredPerceptron(BaseEstimator):
    """Label whole sequences with a perceptron over a joint feature map, decoded by Viterbi.

    Each training example is a sequence ``x`` of ``T`` tokens (a ``(T, D)``
    array of token features) with its labelling ``y`` (one label per token). A
    weight vector ``w`` scores a labelling by ``w . Phi(x, y)``, where
    ``Phi`` counts emission (token feature x label), transition (label pair)
    and start features (:func:`perceptron_lib.theory.joint_features.joint_feature_map`);
    the prediction is the best-scoring labelling, found by Viterbi
    (:func:`perceptron_lib.loops.viterbi.viterbi`), ties going to the lowest
    label index at each back-pointer. Training is Collins' (2002) algorithm:
    from ``w = 0``, visit the sequences one at a time, decode ``z``, and if
    ``z != y`` update

        w <- w + Phi(x, y) - Phi(x, z).

    A labelling that ties with ``y`` but loses the tie-break is a mistake; one
    that wins it is not (Collins updates when ``z != y``). From ``w = 0`` every
    labelling scores 0 and the decoder returns the lowest label everywhere, so
    every sequence labelled otherwise is a mistake, which starts the learning.
    There is no learning rate: from zero weights, scaling every update by the
    same ``eta > 0`` scales ``w`` and, in exact arithmetic, changes no
    decision. In floating point it can: with ``eta = 0.1`` two labellings that
    tie exactly at ``eta = 1`` may score ``0.1`` and ``0.10000000000000006``, and
    the tie-break no longer decides (a power of two as ``eta`` would be exact,
    barring overflow).

    With ``average=True`` the model predicts with Collins' averaged parameters:
    the mean of the weight vectors after each of the ``N`` sequence visits of
    the whole run (every epoch's, not only the updates'). They are kept by the
    lazy trick the course uses for :class:`~perceptron_lib.AveragedPerceptron`
    (after Daume's Algorithm 7), with the count shifted to match Collins:
    alongside ``w`` a sum ``q`` of every update times the number of visits
    before it, so that the average is ``w - q / N`` with no per-visit work.
    Collins' mean leaves out the starting ``w = 0``, which Algorithm 7 as the
    course runs it counts: over
    the same run the two means differ by the factor ``(N + 1) / N``, which
    scales every score and so changes no decision (barring near-ties within
    rounding).

    Two departures from Collins' Fig. 1, both on by default and said here:
    Collins visits the sequences in a fixed order and runs a fixed number of
    passes; here, as in the course's other perceptrons, the order is shuffled
    each epoch when ``shuffle=True`` (``shuffle=False`` keeps his order), and
    training stops after an epoch without a mistake (or after ``max_iter``
    epochs), the average running over the visits made. "Without a mistake"
    means under this tie rule: a converged run may still tie a wrong labelling
    with the right one (a margin of 0), not separate them.

    Collins (2002, Theorem 1): if some unit vector ``U`` scores every
    training labelling above every wrong one by at least ``delta > 0``, and
    every ``||Phi(x, y) - Phi(x, z)|| <= R``, the run makes at most
    ``R^2 / delta^2`` mistakes (his proof does not use the order of the
    visits, so the bound holds for any order and over all passes together)
    (:mod:`perceptron_lib.theory.structured_bound` computes both, by brute
    force, on small problems).

    Parameters
    ----------
    max_iter : int, default=100
        Maximum number of epochs (passes over the sequences), >= 1.
    shuffle : bool, default=True
        Visit the sequences in a new random order every epoch.
    random_state : int, RandomState instance or None, default=None
        Seeds the order of the sequences when ``shuffle=True``.
    average : bool, default=True
        Predict with the averaged parameters (else with the last ones).

    Attributes
    ----------
    classes_ : ndarray of shape (L,)
        The labels seen in ``fit``, sorted; label index ``l`` is ``classes_[l]``.
    coef_ : ndarray of shape (L * D + L * L + L,)
        The weights that predict (averaged if ``average``), in the order of
        :meth:`get_feature_names_out`.
    last_coef_ : ndarray of shape (L * D + L * L + L,)
        The weights after the last visit.
    emission_weights_, transition_weights_, start_weights_ : ndarray
        ``coef_`` cut into its ``(L, D)``, ``(L, L)`` and ``(L,)`` blocks
        (``transition_weights_[k, l]``: label ``k`` followed by label ``l``).
    n_features_in_ : int
        D, the number of token features.
    n_iter_ : int
        Epochs run, including a final mistake-free one.
    converged_ : bool
        Whether the last epoch made no mistake.
    mistakes_per_epoch_ : ndarray of shape (n_iter_,)
        Updates (sequences decoded wrongly) in each epoch.
    mistakes_ : ndarray of shape (n_mistakes, 2)
        Each update in the order made: the epoch (from 1) and the index of the
        sequence in the training list.

    See Also
    --------
    AveragedPerceptron : The binary perceptron with the same averaging trick.

    References
    ----------
    M. Collins (2002), Discriminative training methods for hidden Markov models:
    theory and experiments with perceptron algorithms. EMNLP.

    Examples
    --------
    Tokens with one feature that shows the label only on the first token (+1
    for A, -1 for B); the labels alternate, and the learnt transitions carry
    that pattern on. The run stops with no mistake, but only just: under the
    final weights the wrong labelling ``B A B`` of the first sequence scores
    as much as ``A B A`` (both 2.0), and the tie-break (the lowest label index)
    decides for the right one. No mistake is not a positive margin.

    >>> import numpy as np
    >>> from perceptron_lib import StructuredPerceptron
    >>> X = [np.array([[1.0], [0.0], [0.0]]), np.array([[-1.0], [0.0], [0.0]])]
    >>> y = [np.array(["A", "B", "A"]), np.array(["B", "A", "B"])]
    >>> model = StructuredPerceptron(shuffle=False).fit(X, y)
    >>> [labels.tolist() for labels in model.predict(X)]
    [['A', 'B', 'A'], ['B', 'A', 'B']]
    >>> model.mistakes_per_epoch_.tolist()
    [2, 0]
    >>> model.transition_weights_.tolist()  # rows: the label before (A, B)
    [[-2.0, 1.0], [1.0, 0.0]]
    >>> float(model.score(X, y))
    1.0
    """

    _parameter_constraints: dict = {
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "shuffle": ["boolean"],
        "random_state": ["random_state"],
        "average": ["boolean"],
    }

    def __init__(
        self, *, max_iter: int = 100, shuffle: bool = True, random_state=None, average=True
    ):
        self.max_iter = max_iter
        self.shuffle = shuffle
        self.random_state = random_state
        self.average = average

    # -- training -----------------------------------------------------------

    def fit(self, sequences, label_sequences):
        """Learn from zero weights until an epoch makes no mistake, or ``max_iter`` epochs.

        Parameters
        ----------
        sequences : list of array-like or sparse matrix, each of shape (T_i, D)
            The sequences' token features; lengths ``T_i >= 1`` may differ, ``D``
            may not. A sparse matrix is converted to a dense array.
        label_sequences : list of array-like, each of shape (T_i,)
            The label of each token: numbers, bools or strings, one kind for every
            sequence (NaN is no label).

        Returns
        -------
        self
            The fitted model. If ``fit`` raises, the model is left as it was.
        """
        with all_or_nothing(self):
            return self._fit(sequences, label_sequences)

    def _fit(self, sequences, label_sequences):
        self._validate_params()
        if isinstance(self.max_iter, (bool, np.bool_)):
            raise TypeError(f"max_iter must be an int, got the bool {self.max_iter}.")
        sequences = self._check_sequences(sequences, reset=True)
        label_sequences = _check_label_sequences(label_sequences, sequences)
        self.classes_ = _classes_of(label_sequences)
        targets = [np.searchsorted(self.classes_, labels) for labels in label_sequences]
        n_labels = self.classes_.shape[0]
        w = np.zeros(n_joint_features(n_labels, self.n_features_in_))
        cached = np.zeros_like(w)  # q: every update times the number of visits before it
        visits = 0
        rng = check_random_state(self.random_state)
        per_epoch, mistakes = [], []
        for epoch in range(1, self.max_iter + 1):
            n = len(sequences)
            order = rng.permutation(n) if self.shuffle else np.arange(n)
            count = 0
            for i in order:
                X, y = sequences[i], targets[i]
                z = self._decode(X, w)[0]  # Viterbi: the best labelling under w
                if not np.array_equal(z, y):
                    # Collins' update, literally: w += Phi(x, y) - Phi(x, z).
                    update = joint_feature_map(X, y, n_labels) - joint_feature_map(X, z, n_labels)
                    w += update
                    if self.average:
                        cached += visits * update
                    mistakes.append((epoch, i))
                    count += 1
                visits += 1
            per_epoch.append(count)
            if not np.all(np.isfinite(w)):
                raise ValueError(
                    f"Floating-point overflow in epoch {epoch} of StructuredPerceptron: the "
                    "weights are no longer finite. Scale the token features down."
                )
            if count == 0:
                break
        self.last_coef_ = w
        self.coef_ = w - cached / visits if self.average else w.copy()
        self.mistakes_per_epoch_ = np.array(per_epoch, dtype=np.int64)
        self.mistakes_ = np.array(mistakes, dtype=np.int64).reshape(-1, 2)
        self.n_iter_ = len(per_epoch)
        self.converged_ = per_epoch[-1] == 0
        if not self.converged_:
            warnings.warn(
                f"StructuredPerceptron made {per_epoch[-1]} mistake(s) in its last epoch and "
                f"stopped at max_iter={self.max_iter}: the data may not be separable by the "
                "joint features.",
                ConvergenceWarning,
                stacklevel=3,
            )
        return self

    def _decode(self, X: NDArray, w: NDArray) -> tuple[NDArray[np.int64], float]:
        """The best labelling (label indices) of a checked sequence under ``w``, and its score."""
        emission, transition, start = split_weights(w, self.classes_.shape[0], X.shape[1])
        with unchecked_overflow():  # an infinite score is caught just below
            path, score = viterbi(emission_scores(X, emission), transition, start)
        if not np.isfinite(score):
            # Infinite or NaN scores tie or compare false: the labelling would be arbitrary.
            raise ValueError(
                "Floating-point overflow in StructuredPerceptron: the score of a labelling is "
                f"not finite (largest |x| = {float(abs(X).max()):.3g}). Scale the token "
                "features down, e.g. with sklearn.preprocessing.StandardScaler."
            )
        return path, score

    # -- prediction ---------------------------------------------------------

    def predict(self, sequences) -> list[NDArray]:
        """Return the best labelling of each sequence under ``coef_``.

        Parameters
        ----------
        sequences : list of array-like or sparse matrix, each of shape (T_i, D)

        Returns
        -------
        list of ndarray, each of shape (T_i,)
            Labels from ``classes_``.
        """
        check_is_fitted(self)
        return [
            self.classes_[self._decode(X, self.coef_)[0]] for X in self._check_sequences(sequences)
        ]

    def decision_function(self, sequences) -> NDArray[np.float64]:
        """Return the score ``coef_ . Phi(x, z)`` of each sequence's best labelling ``z``.

        Parameters
        ----------
        sequences : list of array-like or sparse matrix, each of shape (T_i, D)

        Returns
        -------
        ndarray of shape (n_sequences,)
        """
        check_is_fitted(self)
        return np.array(
            [float(self._decode(X, self.coef_)[1]) for X in self._check_sequences(sequences)]
        )

    def score(self, sequences, label_sequences) -> float:
        """Return the per-token accuracy: the fraction of all tokens labelled right.

        Labels never seen in ``fit`` are allowed (they count as errors).

        Parameters
        ----------
        sequences : list of array-like or sparse matrix, each of shape (T_i, D)
        label_sequences : list of array-like, each of shape (T_i,)

        Returns
        -------
        float
        """
        check_is_fitted(self)
        checked = self._check_sequences(sequences)
        label_sequences = _check_label_sequences(label_sequences, checked)
        predicted = [self.classes_[self._decode(X, self.coef_)[0]] for X in checked]
        correct = sum(int(np.sum(p == y)) for p, y in zip(predicted, label_sequences, strict=True))
        return correct / sum(labels.shape[0] for labels in label_sequences)

    # -- the joint features, named ----------------------------------------------

    def joint_features(self, sequence, labels) -> NDArray[np.float64]:
        """Return ``Phi(x, y)`` of one sequence and labelling, in the order of the names.

        Parameters
        ----------
        sequence : array-like of shape (T, D)
        labels : array-like of shape (T,)
            Labels from ``classes_``.

        Returns
        -------
        ndarray of shape (L * D + L * L + L,)
        """
        check_is_fitted(self)
        (X,) = self._check_sequences([sequence])
        (labels,) = _check_label_sequences([labels], [X])
        unknown = sorted(set(labels.tolist()) - set(self.classes_.tolist()), key=str)
        if unknown:
            raise ValueError(
                f"labels {unknown} are not among the classes {self.classes_.tolist()}."
            )
        indices = np.searchsorted(self.classes_, labels)
        return joint_feature_map(X, indices, self.classes_.shape[0])

    def get_feature_names_out(self, input_features=None) -> NDArray:
        """Return the names of the joint features, the entries of ``coef_``.

        Parameters
        ----------
        input_features : array-like of str, optional
            Names of the D token features; ``x0, x1, ...`` if left out.

        Returns
        -------
        ndarray of str
            ``emission[label, feature]``, ``transition[before, after]``, ``start[label]``.
        """
        check_is_fitted(self)
        return joint_feature_names(self.classes_, self.n_features_in_, input_features)

    @property
    def emission_weights_(self) -> NDArray[np.float64]:
        # A copy: writing to it must not change coef_.
        return split_weights(self.coef_, self.classes_.shape[0], self.n_features_in_)[0].copy()

    @property
    def transition_weights_(self) -> NDArray[np.float64]:
        # A copy: writing to it must not change coef_.
        return split_weights(self.coef_, self.classes_.shape[0], self.n_features_in_)[1].copy()

    @property
    def start_weights_(self) -> NDArray[np.float64]:
        # A copy: writing to it must not change coef_.
        return split_weights(self.coef_, self.classes_.shape[0], self.n_features_in_)[2].copy()

    # -- input checks -------------------------------------------------------------

    def _check_sequences(self, sequences, *, reset: bool = False) -> list[NDArray[np.float64]]:
        """Return the sequences as C-ordered finite float arrays of shape (T_i, D), T_i >= 1.

        With ``reset``, D is learnt (``n_features_in_``); otherwise it must match it.
        The inputs are not modified (a conversion makes a copy).
        """
        if isinstance(sequences, (str, bytes)) or not hasattr(sequences, "__iter__"):
            raise TypeError(
                "sequences must be a list of 2-d arrays of shape (T_i, n_features); got "
                f"{type(sequences).__name__}."
            )
        if sparse.issparse(sequences) or (
            isinstance(sequences, np.ndarray) and sequences.ndim == 2
        ):
            raise ValueError(
                "sequences must be a list of 2-d arrays, one per sequence; got a single 2-d "
                "array. For one sequence X, pass [X]."
            )
        checked = []
        for i, sequence in enumerate(sequences):
            if sparse.issparse(sequence):
                sequence = sequence.toarray()
            try:
                X = np.ascontiguousarray(sequence, dtype=np.float64)
            except ValueError as error:
                if "inhomogeneous" in str(error):
                    raise ValueError(
                        f"sequence {i} is ragged: every token needs the same number of features."
                    ) from None
                raise TypeError(
                    f"sequence {i} must be a numeric 2-d array (T_i, n_features): {error}"
                ) from None
            except TypeError as error:
                raise TypeError(
                    f"sequence {i} must be a numeric 2-d array (T_i, n_features): {error}"
                ) from None
            if X.ndim != 2:
                raise ValueError(
                    f"sequence {i} must be 2-d, of shape (T_i, n_features); got shape {X.shape}."
                )
            if X.shape[0] == 0:
                raise ValueError(f"sequence {i} is empty: it has no token.")
            if X.shape[1] == 0:
                raise ValueError(f"sequence {i} has 0 features.")
            expected = checked[0].shape[1] if checked else None
            if expected is None and not reset:
                expected = self.n_features_in_
            if expected is not None and X.shape[1] != expected:
                raise ValueError(
                    f"sequence {i} has {X.shape[1]} features per token, but "
                    f"{'sequence 0 has' if reset else 'the model was fitted with'} {expected}."
                )
            if not np.all(np.isfinite(X)):
                raise ValueError(
                    f"sequence {i} contains NaN or infinity; features must be finite."
                )
            checked.append(X)
        if not checked:
            raise ValueError("sequences is empty: at least one sequence is needed.")
        if reset:
            self.n_features_in_ = checked[0].shape[1]
        return checked


def _check_label_sequences(label_sequences, sequences: list) -> list[NDArray]:
    """Return the label sequences as 1-d arrays, one per sequence, of the same lengths."""
    if isinstance(label_sequences, (str, bytes)) or not hasattr(label_sequences, "__iter__"):
        raise TypeError(
            "label_sequences must be a list of 1-d arrays of labels; got "
            f"{type(label_sequences).__name__}."
        )
    checked = [np.asarray(labels) for labels in label_sequences]
    if len(checked) != len(sequences):
        raise ValueError(
            f"There are {len(sequences)} sequences but {len(checked)} label sequences; "
            "each sequence needs its own."
        )
    kinds = set()
    for i, (labels, X) in enumerate(zip(checked, sequences, strict=True)):
        if labels.ndim != 1:
            raise ValueError(
                f"label sequence {i} must be 1-d, one label per token; got shape "
                f"{labels.shape} (a label is a number or a string, not a tuple or a list)."
            )
        kind = _LABEL_KINDS.get(labels.dtype.kind)
        if kind is None:
            raise TypeError(
                f"label sequence {i} holds {labels.dtype} labels; a label must be a "
                "number, a bool or a string (one kind for all sequences)."
            )
        if kind == "number" and labels.dtype.kind == "f" and np.isnan(labels).any():
            raise ValueError(f"label sequence {i} holds NaN, which is no label.")
        kinds.add(kind)
        if labels.shape[0] != X.shape[0]:
            raise ValueError(
                f"label sequence {i} has {labels.shape[0]} labels but sequence {i} has "
                f"{X.shape[0]} tokens."
            )
    if len(kinds) > 1:
        # np.concatenate would silently turn 1 into "1", or True into 1, and a
        # model trained on such labels would predict another type than it was given.
        raise TypeError(
            f"The labels mix {' and '.join(sorted(kinds))}s; use one kind of label "
            "for every sequence."
        )
    return checked


# Labels are scalars of one kind, so that sorting them (classes_) is a total order
# and comparing a prediction with a label is plain equality.
_LABEL_KINDS = {
    "b": "bool",
    "i": "number",
    "u": "number",
    "f": "number",
    "U": "string",
    "S": "string",
}


def _classes_of(label_sequences: list[NDArray]) -> NDArray:
    """The distinct labels, sorted."""
    try:
        return np.unique(np.concatenate(label_sequences))
    except TypeError as error:
        raise TypeError(f"The labels must be mutually comparable (sortable): {error}") from None
