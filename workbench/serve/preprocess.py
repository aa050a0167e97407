"""Request inputs → one float batch, with the preprocessing the run trained with.

An export's ``preprocess.json`` names the function (``workbench.datasets.readers.load_rgb`` or
``load_grey``) and its configuration. The server looks the name up among the built-in functions and
checks its ``code_hash`` against the function's source today: serving with a preprocessing that has
changed since training would feed the model different numbers, so it is refused at start, not
discovered in the outputs. Images (base64 PNG/JPEG/…) go through that same function — it opens a file
object just as it opens a path. Arrays are taken as already preprocessed and must match the
``InputSpec``. A ``task: custom`` export has no built-in function: it accepts arrays only.

Every problem in a request is a :class:`RequestInvalid` with a message for the client (HTTP 400).
"""

from __future__ import annotations

import base64
import binascii
import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import numpy as np

from workbench.datasets import readers
from workbench.i18n import t
from workbench.inference.preprocess import _code_hash

Array = np.ndarray[Any, Any]

KNOWN: dict[str, Callable[..., Array]] = {
    f"{fn.__module__}.{fn.__qualname__}": fn for fn in (readers.load_rgb, readers.load_grey)
}
"""The built-in preprocessing functions, by the name an identity records."""

MAX_IMAGE_PIXELS = 4096 * 4096
"""A decoded image larger than this is refused (a small PNG can decode to gigabytes)."""


class RequestInvalid(ValueError):
    """A request the server cannot run: the message goes back to the client as a 400 JSON error."""


class PreprocessMismatch(Exception):
    """The export's preprocessing function is not the one this installation has (refused at start)."""


@dataclass(frozen=True)
class Preprocessor:
    """Turns ``{"images": [...]}`` or ``{"arrays": [...]}`` into one batch of the model's input."""

    identity: Mapping[str, Any]
    item_shape: tuple[int | None, ...]
    """The input shape without the batch dimension (``None``: any size)."""
    dtype: str
    max_batch: int
    image_fn: Callable[..., Array] | None

    @classmethod
    def for_export(
        cls, identity: Mapping[str, Any], input_spec: Sequence[Mapping[str, Any]], max_batch: int
    ) -> Preprocessor:
        spec = input_spec[0] if input_spec else {"shape": [None], "dtype": "float32"}
        shape = tuple(None if d is None else int(d) for d in list(spec.get("shape") or [None])[1:])
        fn = KNOWN.get(str(identity.get("name")))
        if fn is not None and identity.get("code_hash") != _code_hash(fn):
            raise PreprocessMismatch(t("serve.input.preprocess_changed", name=str(identity.get("name"))))
        return cls(identity, shape, str(spec.get("dtype") or "float32"), max_batch, fn)

    def batch(self, body: Any) -> Array:
        """The request's inputs as one batch; :class:`RequestInvalid` names what is wrong."""
        if not isinstance(body, dict):
            raise RequestInvalid(t("serve.request.not_object"))
        unknown = sorted(set(body) - {"images", "arrays"})
        if unknown:
            raise RequestInvalid(t("serve.request.unknown_keys", keys=", ".join(unknown)))
        images, arrays = body.get("images"), body.get("arrays")
        if (images is None) == (arrays is None):
            raise RequestInvalid(t("serve.request.one_of"))
        items = images if images is not None else arrays
        if not isinstance(items, list) or not items:
            raise RequestInvalid(t("serve.request.empty"))
        if len(items) > self.max_batch:
            raise RequestInvalid(t("serve.request.too_many", count=len(items), max=self.max_batch))
        if images is not None:
            decoded = [self._image(i, item) for i, item in enumerate(items)]
        else:
            decoded = [self._array(i, item) for i, item in enumerate(items)]
        return np.ascontiguousarray(np.stack(decoded))

    def _image(self, index: int, item: Any) -> Array:
        if self.image_fn is None:
            raise RequestInvalid(t("serve.request.arrays_only", name=str(self.identity.get("name"))))
        if not isinstance(item, str):
            raise RequestInvalid(t("serve.request.image_not_string", index=index))
        try:
            data = base64.b64decode(item, validate=True)
        except (binascii.Error, ValueError):
            raise RequestInvalid(t("serve.request.bad_base64", index=index)) from None
        from PIL import Image

        size = tuple(int(v) for v in self.identity.get("config", {}).get("size", ()))
        try:
            with Image.open(io.BytesIO(data)) as probe:
                width, height = probe.size
            if width * height > MAX_IMAGE_PIXELS:
                raise RequestInvalid(
                    t("serve.request.image_too_large", index=index, width=width, height=height)
                )
            # The training function itself: it opens a file object as it opens a path.
            array = self.image_fn(cast(Path, io.BytesIO(data)), size)
        except RequestInvalid:
            raise
        except Exception as exc:  # noqa: BLE001 - PIL raises many kinds for a bad image: a 400, not a 500
            raise RequestInvalid(
                t("serve.request.bad_image", index=index, error=type(exc).__name__)
            ) from None
        return self._check(index, np.asarray(array, dtype=self.dtype))

    def _array(self, index: int, item: Any) -> Array:
        try:
            array = np.asarray(item, dtype=self.dtype)
        except (TypeError, ValueError):
            raise RequestInvalid(t("serve.request.bad_array", index=index)) from None
        if not np.all(np.isfinite(array)):
            raise RequestInvalid(t("serve.request.nonfinite", index=index))
        return self._check(index, array)

    def _check(self, index: int, array: Array) -> Array:
        expected = self.item_shape
        ok = array.ndim == len(expected) and all(
            e is None or e == a for e, a in zip(expected, array.shape, strict=False)
        )
        if not ok:
            want = "×".join("?" if e is None else str(e) for e in expected)
            got = "×".join(str(d) for d in array.shape)
            raise RequestInvalid(t("serve.request.bad_shape", index=index, want=want, got=got))
        return array
