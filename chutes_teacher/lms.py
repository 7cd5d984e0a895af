"""A class without a hub: submissions uploaded to Canvas or Moodle, graded here, feedback sent back.

Students download a set (the course website, Binder or their own Lab) and upload the notebook to
the LMS assignment. The teacher downloads every submission at once (Canvas: the assignment's
"Download Submissions"; Moodle: "Download all submissions"), puts the zip file as it came into
``<course>/downloaded/<set>/archive/`` and imports it with nbgrader's own ``zip_collect``, told how
the LMS names the files::

    nbgrader zip_collect 03_exercises_markov_chains --collector chutes_teacher.lms.CanvasCollector
    nbgrader zip_collect 03_exercises_markov_chains --collector chutes_teacher.lms.MoodleCollector

Each file is matched to a student of the roster (``python -m chutes_teacher.gradebook roster``):

- **Canvas** names each file ``<name>_<user id>_<attachment id>_<file name>``, with ``LATE_`` before
  the user id when it came in after the due date (``lovelaceada_LATE_1001_555001_<file>``) and
  ``-1``, ``-2`` ... before the extension of a resubmitted file. :class:`CanvasCollector` matches
  the user id with the roster's ``lms_user_id`` (the number Canvas shows in a user's page address,
  ``/users/1001``); Canvas's re-upload of feedback (``infer_comment_context_from_filename`` in
  Canvas's ``app/models/assignment.rb``) reads the same two numbers back.
- **Moodle** names each file (or, by default since Moodle 3.1, a folder per student)
  ``<full name>_<participant id>_assignsubmission_file_<file name>``. The participant id is the
  assignment's own (a different number in each assignment), so :class:`MoodleCollector` matches
  the full name with the roster's first and last name, or, when a grading worksheet is given
  (``--MoodleCollector.worksheet=worksheet.csv``, the assignment's "Download grading worksheet":
  "Identifier" = "Participant <id>", "Email address"), the participant id through the e-mail
  address (needed when the assignment hides names: blind marking). Moodle's "Upload multiple
  feedback files in a zip" (``assignfeedback_file_zip_importer``) reads the participant id back.

A file nobody on the roster matches, or two students could, is skipped and named in the log; so is
a file that is no notebook. A set has one notebook, so whatever name the student's file has (a
browser's ``(1)``, Canvas's ``-1``) it is collected as the set's notebook. The LMS says when each
file came in; nbgrader does not learn it from these names, so the course's late penalty does not
apply to LMS uploads (set the LMS's own late policy; files Canvas marked late are named in the log).

After ``python -m chutes_teacher.autograde`` and ``nbgrader generate_feedback``, ``python -m
chutes_teacher.lms feedback <set> --lms canvas|moodle`` packs every student's feedback into one zip
named for the LMS's bulk feedback upload (Canvas: "Re-Upload Submissions"; Moodle: "Upload multiple
feedback files in a zip"), and ``nbgrader export --exporter chutes_teacher.gradebook.CanvasExport``
(or ``MoodleExport``) writes the grades file (TEACHING.md, "A class without a hub").
"""

from __future__ import annotations

import argparse
import csv
import os
import re
import sys
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nbgrader.plugins import FileNameCollectorPlugin  # type: ignore[import-untyped]
from traitlets import Unicode

__all__ = ["CANVAS_NAME", "MOODLE_NAME", "CanvasCollector", "Download", "MoodleCollector",
           "feedback_zip", "main"]

CANVAS_NAME = (r"^(?P<name>[^_]+)_(?P<late>LATE_)?(?P<lms_user_id>\d+)_(?P<attachment_id>\d+)_"
               r"(?P<file_name>.+)$")
"""A file of Canvas's "Download Submissions" (its base name)."""
MOODLE_NAME = (r"^(?P<full_name>[^_]+)_(?P<participant_id>\d+)_assignsubmission_file_?"
               r"(?P<file_name>.*)$")
"""A file, or the folder holding it, of Moodle's "Download all submissions"."""


@dataclass(frozen=True)
class Download:
    """One downloaded file, as the LMS named it and matched to a student.

    Attributes
    ----------
    student : str
        nbgrader's student id (the roster's ``id``).
    prefix : str
        What the LMS put before the file's own name, which its feedback upload reads back
        (Canvas: ``lovelaceada_1001_555001``; Moodle: ``Ada Lovelace_2001``).
    late : bool
        Whether the LMS marked the file late (Canvas only).
    path : Path
        The file.
    """

    student: str
    prefix: str
    late: bool
    path: Path


def _normal(name: str) -> str:
    return " ".join(name.replace("_", " ").split()).casefold()


class _LmsCollector(FileNameCollectorPlugin):
    """nbgrader's FileNameCollectorPlugin for an LMS's bulk download, matched through the roster."""

    lms = "LMS"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._students: list[Any] | None = None

    # -- what each LMS says about a file -------------------------------------------------
    def parse(self, path: Path) -> tuple[dict[str, str], str] | None:
        """The named groups of the LMS's name and the prefix to give feedback, or None."""
        raise NotImplementedError

    def match(self, groups: dict[str, str]) -> tuple[str | None, str]:
        """(student id or None, why none) for a parsed name."""
        raise NotImplementedError

    # -- shared --------------------------------------------------------------------------
    def coursedir(self) -> Any:
        """The course folder's layout (zip_collect's own, else one from this config)."""
        from nbgrader.coursedir import CourseDirectory  # type: ignore[import-untyped]

        return getattr(self.parent, "coursedir", None) or CourseDirectory(config=self.config)

    def students(self) -> list[Any]:
        """The roster, as the gradebook has it (read once)."""
        if self._students is None:
            from nbgrader.api import Gradebook  # type: ignore[import-untyped]

            coursedir = self.coursedir()
            with Gradebook(coursedir.db_url, coursedir.course_id) as gb:
                self._students = [
                    {"id": s.id, "first_name": s.first_name or "", "last_name": s.last_name or "",
                     "email": (s.email or "").casefold(), "lms_user_id": s.lms_user_id or ""}
                    for s in gb.students]
        return self._students

    def released_notebooks(self) -> list[str]:
        """The set's released notebooks (``release/<set>/*.ipynb``)."""
        coursedir = self.coursedir()
        folder = Path(coursedir.format_path(coursedir.release_directory, ".",
                                            coursedir.assignment_id))
        return sorted(p.name for p in folder.glob("*.ipynb"))

    def download(self, path: Path) -> Download | None:
        """The student a downloaded file is from, or None (the reason logged as a warning).

        Parameters
        ----------
        path : Path
            A file of the extracted download.

        Returns
        -------
        Download or None
        """
        parsed = self.parse(path)
        if parsed is None:
            self.log.warning("Skipped %s: not named as %s names a submission", path.name,
                             self.lms)
            return None
        groups, prefix = parsed
        student, why = self.match(groups)
        if student is None:
            self.log.warning("Skipped %s: %s", path.name, why)
            return None
        return Download(student, prefix, bool(groups.get("late")), path)

    def collect(self, submitted_file: str) -> dict[str, str] | None:
        """nbgrader's call for each extracted file: its student and the notebook it is.

        Parameters
        ----------
        submitted_file : str
            The file's absolute path.

        Returns
        -------
        dict or None
            ``student_id`` and ``file_id`` (the set's notebook), or None to skip the file.
        """
        path = Path(submitted_file)
        if path.suffix not in self.valid_ext:
            self.log.warning("Skipped %s: not a notebook (%s)", path.name,
                             ", ".join(self.valid_ext))
            return None
        found = self.download(path)
        if found is None:
            return None
        released = self.released_notebooks()
        groups, _ = self.parse(path) or ({}, "")
        name = groups.get("file_name") or path.name
        file_id = (released[0] if len(released) == 1
                   else re.sub(r"-\d+(\.ipynb)$", r"\1", name))   # Canvas's resubmission suffix
        if found.late:
            self.log.warning("%s: %s marked it late (nbgrader learns no time from the name: "
                             "the LMS's late policy applies)", found.student, self.lms)
        return {"student_id": found.student, "file_id": file_id}


class CanvasCollector(_LmsCollector):
    """``nbgrader zip_collect --collector chutes_teacher.lms.CanvasCollector``: files of Canvas's
    "Download Submissions", matched by Canvas user id to the roster's ``lms_user_id``."""

    lms = "Canvas"
    named_regexp = Unicode(CANVAS_NAME, help="Canvas's name of a downloaded submission (its "
                           "base name).").tag(config=True)

    def parse(self, path: Path) -> tuple[dict[str, str], str] | None:
        """The groups of :data:`CANVAS_NAME` in the base name, and Canvas's prefix."""
        found = re.match(self.named_regexp, path.name)
        if found is None:
            return None
        groups = {k: v or "" for k, v in found.groupdict().items()}
        prefix = "_".join(p for p in (groups.get("name"), groups.get("late", "").rstrip("_"),
                                      groups.get("lms_user_id"), groups.get("attachment_id")) if p)
        return groups, prefix

    def match(self, groups: dict[str, str]) -> tuple[str | None, str]:
        """The roster's student whose ``lms_user_id`` is the file's Canvas user id."""
        user = groups.get("lms_user_id", "")
        found = [s["id"] for s in self.students() if s["lms_user_id"] == user]
        if len(found) == 1:
            return found[0], ""
        if not found:
            return None, (f"no student of the roster has lms_user_id {user} (the Canvas user "
                          "id): add the column lms_user_id to the roster and import it again")
        return None, f"students {', '.join(found)} all have lms_user_id {user}"


class MoodleCollector(_LmsCollector):
    """``nbgrader zip_collect --collector chutes_teacher.lms.MoodleCollector``: files of Moodle's
    "Download all submissions" (one folder per student, or flat), matched by full name to the
    roster, or by participant id through a grading worksheet's e-mail addresses."""

    lms = "Moodle"
    named_regexp = Unicode(MOODLE_NAME, help="Moodle's name of a downloaded submission, or of "
                           "the folder holding it.").tag(config=True)
    worksheet = Unicode("", help="The assignment's grading worksheet (CSV; 'Download grading "
                        "worksheet'): its 'Identifier' ('Participant <id>') and 'Email address' "
                        "match each participant id to a student of the roster by e-mail "
                        "address.").tag(config=True)

    def parse(self, path: Path) -> tuple[dict[str, str], str] | None:
        """The groups of :data:`MOODLE_NAME` in the file's or a folder's name, and the prefix."""
        for part in reversed(path.parts):
            found = re.match(self.named_regexp, part)
            if found is not None:
                groups = {k: v or "" for k, v in found.groupdict().items()}
                if not groups.get("file_name"):
                    groups["file_name"] = path.name
                return groups, f"{groups['full_name']}_{groups['participant_id']}"
        return None

    def _emails(self) -> dict[str, str]:
        """participant id -> e-mail address, from the worksheet (empty without one)."""
        if not self.worksheet:
            return {}
        with open(self.worksheet, encoding="utf-8-sig", newline="") as fh:
            rows = list(csv.DictReader(fh))
        out = {}
        for row in rows:
            ident = re.search(r"(\d+)", row.get("Identifier", ""))
            if ident:
                out[ident.group(1)] = row.get("Email address", "").strip().casefold()
        return out

    def match(self, groups: dict[str, str]) -> tuple[str | None, str]:
        """By the worksheet's e-mail address when given, else by full name."""
        participant = groups.get("participant_id", "")
        emails = self._emails()
        if emails:
            email = emails.get(participant)
            found = [s["id"] for s in self.students() if email and s["email"] == email]
            what = f"participant {participant} ({email or 'not in the worksheet'})"
        else:
            name = _normal(groups.get("full_name", ""))
            found = [s["id"] for s in self.students()
                     if name in {_normal(f"{s['first_name']} {s['last_name']}"),
                                 _normal(f"{s['last_name']} {s['first_name']}")}]
            what = f"the name {groups.get('full_name', '')!r}"
        if len(found) == 1:
            return found[0], ""
        if not found:
            return None, (f"no student of the roster matches {what} (give the assignment's "
                          "grading worksheet: --MoodleCollector.worksheet=worksheet.csv)")
        return None, (f"{what} matches several students ({', '.join(found)}): give the "
                      "grading worksheet (--MoodleCollector.worksheet=worksheet.csv)")


_COLLECTORS: dict[str, type[_LmsCollector]] = {"canvas": CanvasCollector,
                                                 "moodle": MoodleCollector}


def _collector(lms: str, course: Path, assignment: str, worksheet: str | None) -> _LmsCollector:
    """The collector ``zip_collect`` used, on its own (its course folder from the config)."""
    import logging

    from traitlets.config.loader import PyFileConfigLoader

    config = PyFileConfigLoader("nbgrader_config.py", path=str(course)).load_config()
    config.CourseDirectory.root = str(course)
    config.CourseDirectory.assignment_id = assignment
    if worksheet:
        config.MoodleCollector.worksheet = worksheet
    collector = _COLLECTORS[lms](config=config)
    collector.log = logging.getLogger("chutes_teacher.lms")
    return collector


def _feedback_name(lms: str, download: Download, file: Path) -> str:
    if lms == "canvas":     # Canvas reads back the first two numbers: user id, attachment id
        return f"{download.prefix}_{file.name}"
    return f"{download.prefix}_assignfeedback_file_{file.name}"   # Moodle: participant id


def feedback_zip(course: str | Path, assignment: str, lms: str, to: str | Path | None = None,
                 worksheet: str | None = None) -> tuple[Path, list[str]]:
    """Pack the set's feedback into one zip named for the LMS's bulk feedback upload.

    Parameters
    ----------
    course : str or Path
        The course folder (with ``downloaded/<set>/extracted/`` from ``zip_collect`` and
        ``feedback/`` from ``nbgrader generate_feedback``).
    assignment : str
        The set.
    lms : {"canvas", "moodle"}
        The LMS the submissions came from.
    to : str or Path, optional
        The zip to write (default: ``<course>/feedback_<lms>_<set>.zip``).
    worksheet : str, optional
        Moodle's grading worksheet, as given to ``zip_collect``.

    Returns
    -------
    (Path, list of str)
        The zip, and what was left out, one line each (a student without feedback, a
        downloaded file nobody matched).
    """
    course = Path(course).resolve()
    if lms not in _COLLECTORS:
        raise ValueError(f"unknown LMS {lms!r}: canvas or moodle")
    collector = _collector(lms, course, assignment, worksheet)
    extracted = course / "downloaded" / assignment / "extracted"
    if not extracted.is_dir():
        raise ValueError(f"{extracted} is missing: import the download first (nbgrader "
                         f"zip_collect {assignment} --collector "
                         f"chutes_teacher.lms.{_COLLECTORS[lms].__name__})")
    downloads: dict[str, Download] = {}
    for path in sorted(p for p in extracted.rglob("*.ipynb") if p.is_file()):
        found = collector.download(path)
        if found is not None:
            downloads[found.student] = found
    target = Path(to) if to else course / f"feedback_{lms}_{assignment}.zip"
    left_out: list[str] = []
    written = 0
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for student, download in sorted(downloads.items()):
            folder = course / "feedback" / student / assignment
            files = sorted(folder.glob("*.html")) if folder.is_dir() else []
            if not files:
                left_out.append(f"{student}: no feedback (nbgrader generate_feedback "
                                f"{assignment})")
                continue
            for file in files:
                archive.write(file, _feedback_name(lms, download, file))
                written += 1
    if not written:
        target.unlink()
        raise ValueError(f"no feedback to pack for {assignment}: " + "; ".join(left_out))
    return target, left_out


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m chutes_teacher.lms feedback <set> --lms canvas|moodle [--course .]``.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments (default: the process's).

    Returns
    -------
    int
        0 when the zip was written, 2 when it could not be.
    """
    parser = argparse.ArgumentParser(prog="python -m chutes_teacher.lms",
                                     description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    feedback = sub.add_parser("feedback", help="the set's feedback in one zip for the LMS's "
                              "bulk feedback upload")
    feedback.add_argument("assignment")
    feedback.add_argument("--lms", choices=sorted(_COLLECTORS), required=True)
    feedback.add_argument("--course", type=Path, default=Path.cwd())
    feedback.add_argument("--to", type=Path, default=None)
    feedback.add_argument("--worksheet", default=None, help="Moodle's grading worksheet")
    args = parser.parse_args(argv)
    os.environ["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    try:
        target, left_out = feedback_zip(args.course, args.assignment, args.lms, args.to,
                                         args.worksheet)
    except (ValueError, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    for line in left_out:
        print(f"left out: {line}")
    upload = ("Canvas: the assignment's Re-Upload Submissions" if args.lms == "canvas" else
              "Moodle: View all submissions > Upload multiple feedback files in a zip")
    print(f"wrote {target} ({upload})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
