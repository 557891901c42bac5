"""The bot's settings, read from the environment and `.env` (see `.env.example`)."""

from __future__ import annotations

from pathlib import PurePath
from typing import Literal

from pydantic import AnyHttpUrl, Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.operations.shards import ShardPlan, parse_shard_ids


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
    #: How many shards the whole bot runs (every process alike); unset: as Discord recommends.
    shard_count: int | None = Field(default=None, ge=1, le=100_000,
                                    validation_alias="UNHEX_SHARD_COUNT")
    #: The shards this process runs, such as ``0-3`` or ``4,5,6,7``; unset: all of them.
    shard_ids: str | None = Field(default=None, validation_alias="UNHEX_SHARD_IDS")
    #: The port of ``/healthz`` and ``/metrics``; unset: no HTTP server.
    http_port: int | None = Field(default=None, ge=1, le=65535,
                                  validation_alias="UNHEX_HTTP_PORT")
    #: The address that HTTP server listens on (``0.0.0.0`` in a container).
    http_host: str = Field(default="127.0.0.1", validation_alias="UNHEX_HTTP_HOST")
    #: The base URL of Discord's REST API, such as a rate-limiting proxy shared by every
    #: process (``http://nirn-proxy:8080/api/v10``); unset: Discord's own.
    discord_api: AnyHttpUrl | None = Field(default=None, validation_alias="UNHEX_DISCORD_API")

    @field_validator("database", mode="before")
    @classmethod
    def _path_as_text(cls, value: object) -> object:
        return str(value) if isinstance(value, PurePath) else value

    @field_validator("discord_token", "dev_guild", "dice_seed", "shard_count", "shard_ids",
                     "http_port", "discord_api", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        # `.env.example` copies leave these as `KEY=`; an empty value means "not set".
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @field_validator("shard_ids")
    @classmethod
    def _readable_ids(cls, value: str | None) -> str | None:
        if value is not None:
            parse_shard_ids(value)  # raises ValueError with what is wrong
        return value

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        plan = self.shards
        if plan.ids is not None and plan.count is None:
            raise ValueError("UNHEX_SHARD_IDS needs UNHEX_SHARD_COUNT, the number of shards "
                             "all processes run together")
        count = plan.count or 0
        outside = [i for i in plan.ids or () if i >= count]
        if outside:
            raise ValueError(f"UNHEX_SHARD_IDS names shard {outside[0]}, but UNHEX_SHARD_COUNT="
                             f"{count} numbers them 0 to {count - 1}")
        return self

    @property
    def shards(self) -> ShardPlan:
        """The shards this process runs, from ``shard_count`` and ``shard_ids``."""
        ids = None if self.shard_ids is None else parse_shard_ids(self.shard_ids)
        return ShardPlan(count=self.shard_count, ids=ids)

    @property
    def discord_api_base(self) -> str | None:
        """``discord_api`` without a trailing slash, as discord.py's routes append paths."""
        return None if self.discord_api is None else str(self.discord_api).rstrip("/")
