-- Play sessions with a goal (004 "Advancement"): one open per server; the PCs added to it
-- (PCs who fight during it join by fighting: read from its fights when it ends).
CREATE TABLE play_sessions (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    goal TEXT NOT NULL,
    opened_by INTEGER NOT NULL,
    opened_at TEXT NOT NULL,
    closed_at TEXT,
    achieved INTEGER
);
CREATE UNIQUE INDEX play_sessions_one_open ON play_sessions (guild_id) WHERE closed_at IS NULL;
CREATE TABLE play_session_members (
    session_id INTEGER NOT NULL REFERENCES play_sessions (id),
    character_id INTEGER NOT NULL,
    PRIMARY KEY (session_id, character_id)
);
