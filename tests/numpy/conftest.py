"""Prints the array API conformance pass counts per function family at the end of a run."""


def pytest_terminal_summary(terminalreporter):
    from tests.numpy import test_array_api_conformance as conf  # imported only if that module was collected

    if not conf.PASSES:
        return
    terminalreporter.section("array API conformance: passing examples per function family")
    functions: dict[str, int] = {}
    for family in conf.FAMILY.values():
        functions[family] = functions.get(family, 0) + 1
    for family in sorted(conf.PASSES):
        count, n = conf.PASSES[family], functions[family]
        terminalreporter.write_line(f"{family:14s} {count:5d} examples over {n} functions")
    terminalreporter.write_line(f"{'total':14s} {sum(conf.PASSES.values()):5d}")
