import json

import pytest

from scankit import bench


def test_bench_json_holds_every_printed_row(tmp_path, capsys):
    path = tmp_path / "rows.json"
    assert bench.main(["--cpu", "--log2n", "10", "--reps", "1", "--json", str(path), "--commit", "abc123"]) == 0
    printed = [line for line in capsys.readouterr().out.splitlines() if " scankit " in line]
    doc = json.loads(path.read_text())
    assert doc["meta"]["backend"] == "CPU backend"
    assert doc["meta"]["log2n"] == 10 and doc["meta"]["commit"] == "abc123"
    assert len(doc["rows"]) == len(printed) > 0
    for row, line in zip(doc["rows"], printed):
        assert line.startswith(row["work"])
        assert row["scankit_ms"] > 0
        assert all(b["ms"] > 0 for b in row["baselines"])


def test_bench_json_to_an_unwritable_path_is_a_usage_error(tmp_path):
    with pytest.raises(SystemExit) as e:
        bench.main(["--cpu", "--log2n", "10", "--json", str(tmp_path / "missing" / "rows.json")])
    assert e.value.code == 2
