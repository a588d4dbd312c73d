"""The first schema: teachers, classes, learners, records.

Revision ID: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "teachers",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "classes",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("teacher_id", sa.Integer, sa.ForeignKey("teachers.id", ondelete="CASCADE"), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("code", sa.String(6), nullable=False, unique=True),
        sa.Column("join_key", sa.String(64), nullable=False, unique=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_classes_teacher_id", "classes", ["teacher_id"])
    op.create_table(
        "learners",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id", ondelete="CASCADE"), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("joined", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_learners_class_id", "learners", ["class_id"])
    op.create_table(
        "records",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id", ondelete="CASCADE"), nullable=False),
        sa.Column("learner_id", sa.Integer, sa.ForeignKey("learners.id", ondelete="CASCADE"), nullable=False),
        sa.Column("rid", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("lesson", sa.String(64), nullable=True),
        sa.Column("quiz", sa.String(64), nullable=True),
        sa.Column("skill", sa.String(40), nullable=True),
        sa.Column("correct", sa.Boolean, nullable=True),
        sa.Column("tries", sa.Integer, nullable=True),
        sa.Column("diagnosis", sa.String(64), nullable=True),
        sa.Column("stars", sa.Integer, nullable=True),
        sa.Column("seconds", sa.Float, nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.UniqueConstraint("learner_id", "rid", name="uq_records_learner_rid"),
    )
    op.create_index("ix_records_learner_id", "records", ["learner_id"])


def downgrade() -> None:
    op.drop_table("records")
    op.drop_table("learners")
    op.drop_table("classes")
    op.drop_table("teachers")
