def parse(s):
    return int(s)

def load(items):
    return [parse(s) for s in items]

def main():
    values = load(["1", "2", "three"])
    print(values)

main()
