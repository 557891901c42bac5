"""The bot's settings, read from the environment and `.env` (see `.env.example`)."""

from __future__ import annotations

from pathlib import PurePath
from typing import Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Everything the bot needs to start; names are the environment variables' names."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = Field(default=None, validation_alias="DISCORD_TOKEN")
    #: A SQLite file's path, or a ``postgresql://user:password@host:port/database`` URL.
    database: str = Field(default="unhex.sqlite3", validation_alias="UNHEX_DATABASE")
    #: On PostgreSQL, how many connections this process keeps open at most.
    database_pool: int = Field(default=4, ge=1, le=100,
                               validation_alias="UNHEX_DATABASE_POOL")
    dev_guild: int | None = Field(default=None, validation_alias="UNHEX_DEV_GUILD")
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = Field(
        default="INFO", validation_alias="UNHEX_LOG_LEVEL"
    )
    dice_seed: int | None = Field(default=None, validation_alias="UNHEX_DICE_SEED")

    @field_validator("database", mode="before")
    @classmethod
    def _path_as_text(cls, value: object) -> object:
        return str(value) if isinstance(value, PurePath) else value

    @field_validator("discord_token", "dev_guild", "dice_seed", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        # `.env.example` copies leave these as `KEY=`; an empty value means "not set".
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value
