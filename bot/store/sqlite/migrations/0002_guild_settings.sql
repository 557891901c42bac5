-- per-server settings (the GM role).
CREATE TABLE guild_settings (
    guild_id INTEGER PRIMARY KEY,
    gm_role_id INTEGER
);
