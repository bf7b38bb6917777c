#!/usr/bin/env python3
"""Fails unless every class in the given jars has class-file major version <= MAX (52 = Java 8).

Usage: check-class-versions.py MAX a.jar [b.jar ...]
Entries under META-INF/versions/N/ of a multi-release jar are loaded only by Java N and later, never by Java 8, and
must be at most 44 + N instead (a jar's module-info.class lives there)."""
import re
import struct
import sys
import zipfile


def main():
    limit = int(sys.argv[1])
    jars = sys.argv[2:]
    if not jars:
        sys.exit("check-class-versions: no jars given")
    bad, counted = [], 0
    for jar in jars:
        with zipfile.ZipFile(jar) as z:
            for name in z.namelist():
                if not name.endswith(".class"):
                    continue
                head = z.read(name)[:8]
                if head[:4] != b"\xca\xfe\xba\xbe":
                    bad.append("%s!%s: not a class file" % (jar, name))
                    continue
                major = struct.unpack(">H", head[6:8])[0]
                m = re.match(r"META-INF/versions/(\d+)/", name)
                allowed = 44 + int(m.group(1)) if m else limit
                counted += 1
                if major > allowed:
                    bad.append("%s!%s: major version %d > %d" % (jar, name, major, allowed))
    for b in bad:
        print(b)
    if bad:
        sys.exit("check-class-versions: %d class(es) too new for Java 8" % len(bad))
    print("check-class-versions: %d classes in %d jars, all major version <= %d (Java 8)" % (counted, len(jars), limit))


if __name__ == "__main__":
    main()
