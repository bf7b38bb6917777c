"""Checks aio-hotplug-io-mode.patch on the agent's own code, under the agent's Python 2.

Usage: python2.7 test_hotplug_patch.py ORIGINAL_vm_plugin.py PATCHED_vm_plugin.py

Both files are parsed; the nested volume_native_aio of Vm._attach_data_volume is taken from each, unchanged, and run
on a disk element built like the agent's, with addons as the agent's JsonObject gives them (a missing key is None).
Prints 'N passed, N failed'; exits non-zero on any failure."""
import ast
import sys
import textwrap
import xml.etree.ElementTree as etree


class Addons(dict):
    """Like the agent's jsonobject: a missing key reads as None."""
    def __missing__(self, key):
        return None


class Volume(object):
    def __init__(self, uuid):
        self.volumeUuid = uuid


def nested_function(path, outer, inner):
    source = open(path).read()
    lines = source.split('\n')
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == outer:
            body = node.body
            for i, stmt in enumerate(body):
                if isinstance(stmt, ast.FunctionDef) and stmt.name == inner:
                    end = body[i + 1].lineno - 1 if i + 1 < len(body) else len(lines)
                    return textwrap.dedent('\n'.join(lines[stmt.lineno - 1:end]))
    raise AssertionError('%s.%s not found in %s' % (outer, inner, path))


def load(path):
    """volume_native_aio as a function of (addons, volume) -> the function the agent calls on the disk XML."""
    code = nested_function(path, '_attach_data_volume', 'volume_native_aio')
    factory = 'def make(addons, volume):\n' + textwrap.indent(code, '    ') if hasattr(textwrap, 'indent') else \
        'def make(addons, volume):\n' + '\n'.join('    ' + l for l in code.split('\n'))
    scope = {}
    exec(compile(factory + '\n    return volume_native_aio\n', path, 'exec'), scope)
    return scope['make']


def disk(io=None):
    d = etree.Element('disk', {'type': 'file', 'device': 'disk'})
    attrs = {'name': 'qemu', 'type': 'qcow2', 'cache': 'none'}
    if io:
        attrs['io'] = io
    etree.SubElement(d, 'driver', attrs)
    etree.SubElement(d, 'serial').text = 'vol1'
    return d


def io_after(make, addons, io=None):
    d = disk(io)
    make(addons, Volume('vol1'))(d)
    return d.find('driver').get('io')


def main():
    original, patched = load(sys.argv[1]), load(sys.argv[2])
    cases = [
        # (what, function, addons, io before, io expected)
        ('patched: io_uring decided for this volume', patched, Addons(aioIoMode={'vol1': 'io_uring'}), None, 'io_uring'),
        ('patched: threads over a block disk\'s hard-coded native', patched, Addons(aioIoMode={'vol1': 'threads'}), 'native', 'threads'),
        ('patched: native decided', patched, Addons(aioIoMode={'vol1': 'native'}), None, 'native'),
        ('patched: NativeAio alone still works as before', patched, Addons(NativeAio=True), None, 'native'),
        ('patched: a decision for another volume changes nothing', patched, Addons(aioIoMode={'vol2': 'io_uring'}), None, None),
        ('patched: an unknown mode is ignored', patched, Addons(aioIoMode={'vol1': 'fast'}), None, None),
        ('patched: no addons', patched, Addons(), None, None),
        ('original: aioIoMode is not understood (the reason the patch exists)', original, Addons(aioIoMode={'vol1': 'io_uring'}), None, None),
        ('original: NativeAio', original, Addons(NativeAio=True), None, 'native'),
    ]
    passed = failed = 0
    for what, make, addons, before, expected in cases:
        got = io_after(make, addons, before)
        if got == expected:
            passed += 1
        else:
            failed += 1
            print('FAILED: %s: io=%r, expected %r' % (what, got, expected))
    print('kvmagent patch: %d passed, %d failed' % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
