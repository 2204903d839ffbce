// A Reanimated scene as the Reanimated documentation writes it (no dependency arrays):
// withTiming, withSpring, withRepeat and interpolateColor on Animated.View.
import { useEffect } from 'react';
import { StyleSheet, View, Text } from 'react-native';
import Animated, {
  useSharedValue,
  useAnimatedStyle,
  withTiming,
  withSpring,
  withRepeat,
  interpolateColor,
  Easing,
} from 'react-native-reanimated';

export default function App() {
  const offset = useSharedValue(0);
  const progress = useSharedValue(0);
  const rotation = useSharedValue(0);
  const width = useSharedValue(40);

  const slide = useAnimatedStyle(() => ({
    transform: [{ translateX: offset.value }],
  }));
  const color = useAnimatedStyle(() => ({
    backgroundColor: interpolateColor(progress.value, [0, 1], ['red', 'blue']),
  }));
  const spin = useAnimatedStyle(() => ({
    transform: [{ rotate: `${rotation.value}deg` }],
  }));
  const grow = useAnimatedStyle(() => ({
    width: width.value,
  }));

  useEffect(() => {
    offset.value = withTiming(200, { duration: 2000, easing: Easing.linear });
    progress.value = withTiming(1, { duration: 1000 });
    rotation.value = withRepeat(withTiming(360, { duration: 1000, easing: Easing.linear }), -1);
    width.value = withSpring(200);
  }, []);

  return (
    <View style={styles.container}>
      <Animated.View testID="slide" style={[styles.box, slide]} />
      <Animated.View testID="color" style={[styles.box, color]} />
      <Animated.View testID="spin" style={[styles.box, { backgroundColor: '#b58df1' }, spin]} />
      <Animated.View testID="grow" style={[styles.bar, grow]} />
      <Text style={styles.label}>Reanimated</Text>
    </View>
  );
}

const styles = StyleSheet.create({
  container: { flex: 1, backgroundColor: '#fff', padding: 8 },
  box: { width: 40, height: 24, borderRadius: 6, backgroundColor: '#4f8cff', marginBottom: 6 },
  bar: { height: 12, backgroundColor: '#22aa66', borderRadius: 3 },
  label: { marginTop: 6, fontSize: 14 },
});
