-- facts about the bot itself, by key (the fingerprint of the commands last synced).
CREATE TABLE bot_meta (
    key TEXT PRIMARY KEY,
    value TEXT
);
