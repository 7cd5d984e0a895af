"""Submissions held to a file count and a size, and never read through a symbolic link.

A submission is the student's folder: on a shared server (nbgrader's default exchange) it sits in
the exchange's ``inbound/`` folder, which every student can write to, until ``nbgrader collect``
copies it, as the teacher, into ``submitted/``. nbgrader copies it with ``shutil.copytree``, which
follows symbolic links, and autograde and feedback copy every other file of it with
``shutil.copy``, which follows them too: a link to the course's ``gradebook.db`` came back to its
student as a file of the feedback, and a link to ``/dev/zero`` would fill the disk. nbgrader walks
and copies any number of files: 20,000 small ones took the teacher's server more than ten minutes.

So, here:

- :func:`guard_default_collect` (:class:`GuardedCollect`) refuses, before anything is copied, a
  submission over :data:`MAX_FILES` entries or :data:`MAX_BYTES` bytes, or holding a symbolic
  link or anything but files and folders, with a message naming the student; the others are
  collected as usual. It then copies with :func:`copy_submission`, which never follows a link
  (every file is opened relative to its folder with ``O_NOFOLLOW``), so a link made after the
  check is refused too.
- :func:`guard_converters` refuses the same submissions again before autograde copies them (and
  an autograded folder before feedback copies it): ``nbgrader zip_collect`` or a hand copy into
  ``submitted/`` never met collect.
- :mod:`chutes_teacher.sandbox` copies the notebook's folder into its sandbox with
  :func:`copy_submission` too, leaving out any link.

Links are refused, not skipped: ``nbgrader submit`` copies the student's folder following links,
so a submission made by nbgrader never holds one; a link can only have been planted by hand, and
the teacher should hear of it (the student, and the link's name and target, are in the message).
The checks walk at most :data:`MAX_FILES` entries, so a submission of 20,000 files is refused after
the first few hundred, in milliseconds.
"""

from __future__ import annotations

import errno
import fnmatch
import os
import shutil
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nbgrader.exchange.default import ExchangeCollect  # type: ignore[import-untyped]
from traitlets import Integer
from traitlets.config import LoggingConfigurable

__all__ = ["MAX_BYTES", "MAX_FILES", "Contents", "GuardedCollect", "SubmissionLimits",
           "SubmissionRefused", "check_submission", "copy_submission", "guard_converters",
           "guard_default_collect"]

MAX_FILES = 200
"""Files and folders a submission may hold (the course's sets are one notebook)."""

MAX_BYTES = 50_000_000
"""Bytes all files of a submission may hold together (50 MB)."""

_CHUNK = 1024 ** 2
_SETTING = "c.SubmissionLimits"


class SubmissionRefused(ValueError):
    """A submission over the limits, or holding a link or a special file; the message names the
    student."""


class SubmissionLimits(LoggingConfigurable):
    """The limits, configurable in ``nbgrader_config.py`` as ``c.SubmissionLimits.max_files`` and
    ``c.SubmissionLimits.max_bytes``."""

    max_files = Integer(MAX_FILES, help=(
        "Files and folders a submission may hold; a bigger one is refused at collect, autograde "
        "and feedback.")).tag(config=True)
    max_bytes = Integer(MAX_BYTES, help=(
        "Bytes all files of a submission may hold together; a bigger one is refused at collect, "
        "autograde and feedback.")).tag(config=True)


@dataclass
class Contents:
    """What a submission held: its entries (files and folders), bytes, and the links left out.

    Attributes
    ----------
    entries : int
        Files and folders seen (ignored ones included).
    size : int
        Bytes of its files (as copied, when copied).
    links : list of str
        The links left out (``links="skip"``), as ``"path -> target"``.
    """

    entries: int = 0
    size: int = 0
    links: list[str] | None = None


Skip = Callable[[str, bool, int], bool]
"""``skip(name, is_folder, size)``: whether an entry is left out (not copied, not counted)."""


def _mb(size: int) -> str:
    return f"{size / 1e6:g} MB"


class _Walk:
    """One walk of a submission's folder, through folder descriptors, never following a link."""

    def __init__(self, student: str, what: str, max_files: int, max_bytes: int,
                 links: str, skip: Skip | None) -> None:
        self.student, self.what = student, what
        self.max_files, self.max_bytes = max_files, max_bytes
        self.links, self.skip = links, skip
        self.contents = Contents(links=[])

    def refuse(self, reason: str) -> SubmissionRefused:
        return SubmissionRefused(
            f"refused {self.student}'s submission ({self.what}): {reason}. Nothing of it was "
            f"copied; {self.student} may submit again within the limits ({_SETTING}: at most "
            f"{self.max_files} files and {_mb(self.max_bytes)}, no links).")

    def open_top(self, folder: Path) -> int:
        try:
            return os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        except OSError as err:
            if err.errno in (errno.ELOOP, errno.ENOTDIR) and folder.is_symlink():
                raise self.refuse(f"the folder {folder.name} is a symbolic link to "
                                  f"{os.readlink(folder)}") from None
            raise

    def walk(self, fd: int, relative: str, dest: int | None) -> None:
        """Check (and, with ``dest``, copy) the folder open as ``fd``; closes nothing."""
        with os.scandir(fd) as listing:            # lazily: a huge folder is not read whole
            for entry in listing:
                self.entry(fd, entry.name, f"{relative}{entry.name}", dest)

    def entry(self, fd: int, name: str, path: str, dest: int | None) -> None:
        """Check (and copy) one entry of the folder open as ``fd``."""
        self.contents.entries += 1
        if self.contents.entries > self.max_files:
            raise self.refuse(f"more than {self.max_files} files and folders")
        info = os.stat(name, dir_fd=fd, follow_symlinks=False)
        if stat.S_ISLNK(info.st_mode):
            target = os.readlink(name, dir_fd=fd)
            if self.links == "skip":
                assert self.contents.links is not None
                self.contents.links.append(f"{path} -> {target}")
                return
            raise self.refuse(f"{path} is a symbolic link (to {target})")
        folder = stat.S_ISDIR(info.st_mode)
        if not folder and not stat.S_ISREG(info.st_mode):
            raise self.refuse(f"{path} is not a file or a folder")
        if not folder and self.contents.size + info.st_size > self.max_bytes:
            # before nbgrader's own rules, which would leave a huge file out silently
            raise self.refuse(f"more than {_mb(self.max_bytes)} (at {path}, "
                              f"{_mb(self.contents.size + info.st_size)} so far)")
        if self.skip is not None and self.skip(name, folder, info.st_size):
            return
        if folder:
            self.folder(fd, name, path, dest)
        else:
            self.file(fd, name, path, info.st_size, dest)

    def folder(self, fd: int, name: str, path: str, dest: int | None) -> None:
        sub = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
        target = None
        try:
            if dest is not None:
                os.mkdir(name, 0o755, dir_fd=dest)
                target = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW,
                                 dir_fd=dest)
            self.walk(sub, f"{path}/", target)
        finally:
            os.close(sub)
            if target is not None:
                os.close(target)

    def file(self, fd: int, name: str, path: str, size: int, dest: int | None) -> None:
        if self.contents.size + size > self.max_bytes:
            raise self.refuse(f"more than {_mb(self.max_bytes)} (at {path}, "
                              f"{_mb(self.contents.size + size)} so far)")
        if dest is None:
            self.contents.size += size
            return
        try:
            source = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=fd)
        except OSError as err:
            if err.errno == errno.ELOOP:       # made a link after it was listed
                raise self.refuse(f"{path} is a symbolic link") from None
            raise
        try:
            if not stat.S_ISREG(os.fstat(source).st_mode):
                raise self.refuse(f"{path} is not a file")
            copy = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644,
                           dir_fd=dest)
            try:
                while chunk := os.read(source, _CHUNK):
                    self.contents.size += len(chunk)
                    if self.contents.size > self.max_bytes:   # it grew while being copied
                        raise self.refuse(f"more than {_mb(self.max_bytes)} (at {path})")
                    os.write(copy, chunk)
            finally:
                os.close(copy)
        finally:
            os.close(source)


def check_submission(folder: str | Path, student: str, max_files: int = MAX_FILES,
                     max_bytes: int = MAX_BYTES, what: str = "",
                     skip: Skip | None = None) -> Contents:
    """Check a submission's folder without copying it: entries, bytes, links, special files.

    Parameters
    ----------
    folder : str or Path
        The submission's folder.
    student : str
        Whose it is, for the message.
    max_files, max_bytes : int
        The limits (:class:`SubmissionLimits`).
    what : str, optional
        What the folder is, for the message (default: its path).
    skip : callable, optional
        ``skip(name, is_folder, size)``: entries left out (neither walked nor counted in bytes).

    Returns
    -------
    Contents
        What it holds.

    Raises
    ------
    SubmissionRefused
        Over a limit, or holding a symbolic link or anything but files and folders (the folder
        itself being a link included). At most ``max_files`` entries are looked at.
    """
    walk = _Walk(student, what or str(folder), max_files, max_bytes, "refuse", skip)
    fd = walk.open_top(Path(folder))
    try:
        walk.walk(fd, "", None)
    finally:
        os.close(fd)
    return walk.contents


def copy_submission(source: str | Path, dest: str | Path, student: str,
                    max_files: int = MAX_FILES, max_bytes: int = MAX_BYTES, what: str = "",
                    links: str = "refuse", skip: Skip | None = None) -> Contents:
    """Copy a submission's folder, never following a link, within the limits.

    Parameters
    ----------
    source : str or Path
        The submission's folder.
    dest : str or Path
        The copy's folder: made here (it must not exist; its parent must).
    student : str
        Whose it is, for the message.
    max_files, max_bytes : int
        The limits (:class:`SubmissionLimits`).
    what : str, optional
        What the folder is, for the message (default: its path).
    links : {"refuse", "skip"}
        A symbolic link refuses the submission, or is left out (listed in the result).
    skip : callable, optional
        ``skip(name, is_folder, size)``: entries left out.

    Returns
    -------
    Contents
        What was copied, and the links left out.

    Raises
    ------
    SubmissionRefused
        As :func:`check_submission`; a partial copy is removed first.
    """
    walk = _Walk(student, what or str(source), max_files, max_bytes, links, skip)
    fd = walk.open_top(Path(source))
    target = Path(dest)
    try:
        target.mkdir()
        out = os.open(target, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        try:
            walk.walk(fd, "", out)
        finally:
            os.close(out)
    except SubmissionRefused:
        shutil.rmtree(target, ignore_errors=True)
        raise
    finally:
        os.close(fd)
    return walk.contents


def _nbgrader_skip(coursedir: Any, log: Any) -> Skip:
    """nbgrader's own rules for what a copy leaves out (``CourseDirectory.ignore``, ``include``
    and ``max_file_size``, as :func:`nbgrader.utils.ignore_patterns` applies them)."""
    exclude, include = list(coursedir.ignore or []), list(coursedir.include or [])
    largest = coursedir.max_file_size

    def skip(name: str, folder: bool, size: int) -> bool:
        if any(fnmatch.fnmatch(name, glob) for glob in exclude):
            return True
        if folder:
            return False
        if include and not any(fnmatch.fnmatch(name, glob) for glob in include):
            return True
        if largest and size > 1000 * largest:
            log.warning("Ignoring file too large '%s' (see config option "
                        "CourseDirectory.max_file_size)", name)
            return True
        return False

    return skip


def _limits(step: Any) -> SubmissionLimits:
    return SubmissionLimits(parent=step)


def _drop_refused(collect: Any) -> None:
    """Drop from a collect's ``src_records`` (naming each) the submissions over the limits."""
    limits = _limits(collect)
    kept: list[dict[str, Any]] = []
    records: list[dict[str, Any]] = getattr(collect, "src_records", [])
    for record in records:
        path = Path(collect.inbound_path) / record["filename"]
        try:
            check_submission(path, record["username"], limits.max_files, limits.max_bytes,
                             what=f"{collect.coursedir.assignment_id}, {path.name}",
                             skip=_nbgrader_skip(collect.coursedir, collect.log))
        except SubmissionRefused as refused:
            collect.log.error("%s", refused)
            continue
        kept.append(record)
    collect.src_records = kept


def _copy_guarded(collect: Any, src: str, dest: str) -> None:
    """Copy one submission with :func:`copy_submission` (no link followed, limits held)."""
    limits = _limits(collect)
    name = os.path.basename(src)
    student = name.rsplit("+", 3)[0] if "+" in name else name
    try:
        copy_submission(src, dest, student, limits.max_files, limits.max_bytes,
                        what=f"{collect.coursedir.assignment_id}, {name}",
                        skip=_nbgrader_skip(collect.coursedir, collect.log))
    except SubmissionRefused as refused:    # changed since init_src looked
        collect.log.error("%s", refused)
        return
    if collect.coursedir.groupshared:
        _share_with_group(Path(dest), collect.log)


class GuardedCollect(ExchangeCollect):
    """nbgrader's collect (default exchange), refusing submissions over the limits or with links.

    :func:`guard_default_collect` gives nbgrader's own default collect the same two steps, which is
    how the course uses it (a hub's exchange, ngshare, has its own collect class, which a setting
    of ``c.ExchangeFactory.collect`` here would replace). The limits are
    :class:`SubmissionLimits`. A refused submission is named in an error line and left in
    ``inbound/``; an earlier one already in ``submitted/`` stays; the other students' are
    collected.
    """

    def init_src(self) -> None:
        """Find the submissions to collect as nbgrader does, then drop (naming each) the ones
        over the limits."""
        super().init_src()
        _drop_refused(self)

    def do_copy(self, src: str, dest: str, log: Any = None) -> None:
        """Copy one submission with :func:`copy_submission` (no link followed, limits held)."""
        _copy_guarded(self, src, dest)


def guard_default_collect() -> None:
    """Give nbgrader's default exchange's collect the steps of :class:`GuardedCollect`.

    Done on nbgrader's own class, once per process (``nbgrader_config.py`` calls it), rather than
    with ``c.ExchangeFactory.collect``: on a hub the exchange is ngshare, whose collect class the
    students' ``/etc/jupyter`` config names, and a course setting would replace it. ngshare's
    collect is not touched (it stores files' contents, so no link reaches it; its own upload
    limit bounds a submission).
    """
    original = ExchangeCollect.init_src
    if getattr(original, "chutes_guarded", False):
        return

    def init_src(self: Any) -> None:
        original(self)
        _drop_refused(self)

    def do_copy(self: Any, src: str, dest: str, log: Any = None) -> None:
        _copy_guarded(self, src, dest)

    init_src.chutes_guarded = True  # type: ignore[attr-defined]
    ExchangeCollect.init_src = init_src
    ExchangeCollect.do_copy = do_copy


def _share_with_group(dest: Path, log: Any) -> None:
    """Folders ug+rwx (setgid), files ug+rw, as nbgrader's own copy does when groupshared."""
    for folder, _, files in os.walk(dest):
        mode = os.stat(folder).st_mode
        if mode & 0o2770 != 0o2770:
            try:
                os.chmod(folder, (mode | 0o2770) & 0o2777)
            except PermissionError:
                log.warning("Could not update permissions of %s to make it groupshared", folder)
        for name in files:
            path = os.path.join(folder, name)
            mode = os.stat(path).st_mode
            if mode & 0o660 != 0o660:
                try:
                    os.chmod(path, (mode | 0o660) & 0o777)
                except PermissionError:
                    log.warning("Could not update permissions of %s to make it groupshared", path)


def guard_converters() -> None:
    """Make autograde and feedback refuse a submission over the limits or with a link.

    nbgrader copies every file of ``submitted/<student>/<set>/`` into ``autograded/`` (and of
    ``autograded/`` into ``feedback/``) in ``BaseConverter.init_assignment``, with ``shutil.copy``,
    before any preprocessor runs, and has no setting for the converter's class. So this wraps that
    method, once per process (``nbgrader_config.py`` calls it): for ``Autograde`` and
    ``GenerateFeedback`` the folder is checked first (:func:`check_submission`, the limits of
    :class:`SubmissionLimits`); a refusal is that student's error, which nbgrader logs (naming
    the student) before it goes on with the next. The folders are the teacher's own, so nothing
    changes them between the check and nbgrader's copy.
    """
    from nbgrader.converters import Autograde, GenerateFeedback  # type: ignore[import-untyped]
    from nbgrader.converters.base import BaseConverter  # type: ignore[import-untyped]

    original = BaseConverter.init_assignment
    if getattr(original, "chutes_guarded", False):
        return

    def init_assignment(self: Any, assignment_id: str, student_id: str) -> None:
        if isinstance(self, Autograde | GenerateFeedback):
            limits = SubmissionLimits(parent=self)
            folder = self._format_source(assignment_id, student_id)
            step = "autograde" if isinstance(self, Autograde) else "feedback"
            try:
                check_submission(folder, student_id, limits.max_files, limits.max_bytes,
                                 what=f"{assignment_id}, {step} of {folder}")
            except SubmissionRefused as refused:
                self.log.error("%s", refused)
                raise
        original(self, assignment_id, student_id)

    init_assignment.chutes_guarded = True  # type: ignore[attr-defined]
    init_assignment.__doc__ = original.__doc__
    BaseConverter.init_assignment = init_assignment
