import TextSnapshot
print(DisplayWidth.of("日本"))
