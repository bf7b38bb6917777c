package org.zstack.aio.zstack;

/** The placeholders of an SQL {@code IN (...)} list of {@code n} values: {@code ?, ?, ?}. */
final class InList {

    private InList() {
    }

    static String marks(int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) b.append(i == 0 ? "?" : ", ?");
        return b.toString();
    }
}
