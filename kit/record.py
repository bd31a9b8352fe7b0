"""Records: the small part of ``dataclasses`` the syllabus model and the linter use.

``sylla lint`` on one file has a start-up budget of twice ``python -c pass`` (issue 24), and the
standard ``@dataclass`` spent most of it: importing it imports ``inspect`` (and with it ``ast``,
``dis``, ``tokenize``), and each class compiles about six generated methods and computes an
``inspect.signature`` -- 28 classes on the lint path, about 40% of the whole process.
``msgspec.Struct`` builds classes in C but its own import (``inspect``, ``typing_extensions``,
``datetime``, ``decimal``, ``uuid``) costs more than the budget leaves.

``@record`` keeps ``@dataclass``'s declarations and behaviour for what sylla uses: a generated
``__init__`` (the only compiled method, compiled when the record is first constructed;
defaults and ``default_factory``), ``__repr__``,
``__eq__`` and (frozen) ``__hash__`` over the same fields with the same values as
``@dataclass``, ``compare=False``/``repr=False`` fields, ``frozen`` (assignment raises
``dataclasses.FrozenInstanceError``), ``slots``, ``__match_args__``, pickling and copying of
frozen slotted records; ``replace`` and ``field_names`` stand for ``dataclasses.replace`` and
``dataclasses.fields``. Not supported (no class uses them): inheritance between records,
``init=False``, ``kw_only``, ``order``, ``ClassVar`` fields and ``InitVar``.
"""

from __future__ import annotations

import operator

from sylla.kit import code_cache
from sylla.kit.no_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Callable, TypeVar, dataclass_transform

    T = TypeVar("T")
    _C = TypeVar("_C", bound=type)
else:  # the decorator only type checkers read, without importing typing (start-up, issue 24)
    from sylla.kit.no_typing import dataclass_transform


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()
#: what an omitted argument of a ``default_factory`` field defaults to (as in ``dataclasses``)
_FACTORY: Any = _Missing()


class Field:
    """A field's options, written ``name: type = field(...)`` as with ``dataclasses.field``."""

    __slots__ = ("default", "default_factory", "compare", "repr")

    def __init__(self, default: Any, default_factory: Any, compare: bool, repr: bool) -> None:
        self.default = default
        self.default_factory = default_factory
        self.compare = compare
        self.repr = repr


def field(
    *, default: Any = MISSING, default_factory: Callable[[], Any] | Any = MISSING, compare: bool = True, repr: bool = True
) -> Any:
    """``dataclasses.field`` for records: a default or a factory, and whether the field takes part
    in equality and hash (``compare``) and in the repr."""
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return Field(default, default_factory, compare, repr)


@dataclass_transform(field_specifiers=(field,))
def record(*, frozen: bool = False, slots: bool = False) -> Callable[[_C], _C]:
    """Make the decorated class a record of its annotated fields (see the module's docstring)."""

    def wrap(cls: _C) -> _C:
        return _build(cls, frozen, slots)

    return wrap


def field_names(cls_or_record: Any) -> tuple[str, ...]:
    """The fields' names in declaration (and constructor) order."""
    names: tuple[str, ...] = cls_or_record.__record_fields__
    return names


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of the record ``obj`` with ``changes`` (``dataclasses.replace``)."""
    names = field_names(obj)
    for name in changes:
        if name not in names:
            raise TypeError(f"{type(obj).__name__}.__init__() got an unexpected keyword argument {name!r}")
    return type(obj)(**{name: changes[name] if name in changes else getattr(obj, name) for name in names})


def _build(cls: Any, frozen: bool, slots: bool) -> Any:
    namespace = cls.__dict__
    names = tuple(namespace.get("__annotations__", {}))
    options: dict[str, Field] = {}
    seen_default = False
    for name in names:
        value = namespace.get(name, MISSING)
        opt = options[name] = value if isinstance(value, Field) else Field(value, MISSING, True, True)
        if opt.default is not MISSING or opt.default_factory is not MISSING:
            seen_default = True
        elif seen_default:
            raise TypeError(f"non-default argument {name!r} follows default argument")
    if slots:
        body = {k: v for k, v in namespace.items() if k not in names and k not in ("__dict__", "__weakref__")}
        body["__slots__"] = names
        qualname = getattr(cls, "__qualname__", None)
        cls = type(cls)(cls.__name__, cls.__bases__, body)
        if qualname is not None:
            cls.__qualname__ = qualname
    else:
        for name, opt in options.items():
            if opt.default is not MISSING:
                setattr(cls, name, opt.default)
            elif name in namespace:
                delattr(cls, name)  # a field(default_factory=...) or field() leaves no class attribute

    cls.__record_fields__ = names
    cls.__match_args__ = names  # type: ignore[misc]  # mypy guards the attribute; records set it as @dataclass does, for ``case Span(start, end)``
    cls.__init__ = _first_init(cls, names, options, frozen, slots)
    shown = tuple(n for n in names if options[n].repr)
    compared = tuple(n for n in names if options[n].compare)
    key = _key(compared)
    own = cls.__dict__

    def __repr__(self: Any) -> str:
        return f"{self.__class__.__qualname__}(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in shown) + ")"

    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented

    def __hash__(self: Any) -> int:
        return hash(key(self))

    if "__repr__" not in own:
        cls.__repr__ = __repr__
    if "__eq__" not in own:
        cls.__eq__ = __eq__
    if "__hash__" not in own or own["__hash__"] is None:
        # as @dataclass(eq=True): hashable by value when frozen, unhashable otherwise
        cls.__hash__ = __hash__ if frozen else None
    if frozen:
        cls.__setattr__ = _frozen_setattr(cls, names)
        cls.__delattr__ = _frozen_delattr(cls, names)
        if slots:
            cls.__getstate__ = _getstate
            cls.__setstate__ = _setstate
    return cls


def _key(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The tuple of a record's compared fields: ``@dataclass`` compares and hashes that tuple."""
    if len(names) >= 2:
        return operator.attrgetter(*names)
    if len(names) == 1:
        get = operator.attrgetter(names[0])
        return lambda obj: (get(obj),)
    return lambda obj: ()


def _first_init(cls: Any, names: tuple[str, ...], options: dict[str, Field], frozen: bool, slots: bool) -> Any:
    """An ``__init__`` that makes the real one on the record's first construction and puts it
    in its place: compiling costs more than building the class (0.6-2.4M instructions; the
    code is kept across runs, ``code_cache``), and a small lint never constructs a third of
    its records (a clean file has no ``Fix``)."""

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        init = _init(cls, names, options, frozen, slots)
        if cls.__dict__.get("__init__") is __init__:
            cls.__init__ = init
        init(self, *args, **kwargs)

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return __init__


def _init(cls: Any, names: tuple[str, ...], options: dict[str, Field], frozen: bool, slots: bool) -> Any:
    """The one generated method: a plain ``__init__`` keeps construction fast (the parser builds
    a record or two per instruction). A frozen record cannot assign its fields: ``@dataclass``
    calls ``object.__setattr__`` for each, a frozen slotted record calls the slot's own setter,
    a third faster."""
    env: dict[str, Any] = {"_set": object.__setattr__, "_FACTORY": _FACTORY}
    params, lines = ["self"], []
    for name in names:
        opt = options[name]
        if opt.default_factory is not MISSING:
            env[f"_f_{name}"] = opt.default_factory
            params.append(f"{name}=_FACTORY")
            value = f"_f_{name}() if {name} is _FACTORY else {name}"
        elif opt.default is not MISSING:
            env[f"_d_{name}"] = opt.default
            params.append(f"{name}=_d_{name}")
            value = name
        else:
            params.append(name)
            value = name
        if frozen and slots:
            env[f"_s_{name}"] = cls.__dict__[name].__set__
            lines.append(f"    _s_{name}(self, {value})")
        elif frozen:
            lines.append(f"    _set(self, {name!r}, {value})")
        else:
            lines.append(f"    self.{name} = {value}")
    source = f"def __init__({', '.join(params)}) -> None:\n" + ("\n".join(lines) or "    pass") + "\n"
    code = code_cache.cached(source)
    if code is None:  # compiled here, with this module's future flags, as exec(source) would
        code = compile(source, "<string>", "exec")
        code_cache.keep(source, code)
    exec(code, env)  # generated from the class's own annotations, as @dataclass does
    init = env["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


def _frozen_setattr(cls: Any, names: tuple[str, ...]) -> Callable[[Any, str, Any], None]:
    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            _frozen(name)
        super(cls, self).__setattr__(name, value)

    return __setattr__


def _frozen_delattr(cls: Any, names: tuple[str, ...]) -> Callable[[Any, str], None]:
    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            _frozen(name)
        super(cls, self).__delattr__(name)

    return __delattr__


def _frozen(name: str) -> None:
    from dataclasses import FrozenInstanceError  # noqa: PLC0415  # the error path only: records keep dataclasses off start-up

    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _getstate(self: Any) -> list[Any]:
    return [getattr(self, name) for name in self.__record_fields__]


def _setstate(self: Any, state: list[Any]) -> None:
    for name, value in zip(self.__record_fields__, state):
        object.__setattr__(self, name, value)
