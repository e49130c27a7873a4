-- Version names are read case-insensitively (`v1` and `V1` name one version), so two versions
-- of a space may not differ by case alone: a publish of `V1` beside `v1` is refused.
CREATE UNIQUE INDEX space_versions_name_ci ON space_versions (wiki_id, lower(name));
